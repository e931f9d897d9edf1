import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { parseService, SERVICE_CODES, SERVICES } from './services.ts';

describe('services', () => {
  it('has the delays and cut-offs of SPEC §7', () => {
    expect(SERVICES.express).toMatchObject({ delayBusinessDays: 0, cutoffHour: 12 });
    expect(SERVICES.standard).toMatchObject({ delayBusinessDays: 1, cutoffHour: 16 });
    expect(SERVICES.economy).toMatchObject({ delayBusinessDays: 3, cutoffHour: 16 });
    for (const code of SERVICE_CODES) expect(SERVICES[code].code).toBe(code);
  });

  it.each([
    ['express', 'express'],
    ['standard', 'standard'],
    [' Economy ', 'economy'],
  ])('parses %j', (input, expected) => {
    expect(parseService(input)).toBe(expected);
  });

  it.each(['', 'fast', 'toString', 'constructor', 3, null, undefined])('rejects %j', (input) => {
    expect(() => parseService(input)).toThrow(AppError);
    expect(() => parseService(input)).toThrow(/^service: must be one of express, standard, economy$/);
  });
});
