import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { MAX_AMOUNT_CENTS, MAX_AMOUNT_EUR, parseAmount } from './order-input.ts';

describe('parseAmount', () => {
  it('converts amounts with at most 2 decimals up to the maximum, exactly', () => {
    expect(parseAmount(49.9)).toBe(4990);
    expect(parseAmount(1.15)).toBe(115);
    expect(parseAmount(-0)).toBe(0);
    expect(parseAmount(MAX_AMOUNT_EUR)).toBe(MAX_AMOUNT_CENTS);
    expect(parseAmount(null)).toBeNull();
  });

  // Callers other than the HTTP schema (the CLI, services) get the same 400, never a RangeError.
  it.each([
    1e15,
    1e308,
    2 ** 53,
    Number.MAX_SAFE_INTEGER + 2,
    MAX_AMOUNT_EUR + 0.01,
    Number.POSITIVE_INFINITY,
  ])('refuses %d as over the maximum', (value) => {
    expect(() => parseAmount(value)).toThrow(AppError);
    expect(() => parseAmount(value)).toThrow(`amount_eur: must be <= ${MAX_AMOUNT_EUR}`);
  });

  it.each([-1, -1e308, 1e-9, 0.001, 0.30000000000000004, Number.NaN])('refuses %d', (value) => {
    expect(() => parseAmount(value)).toThrow('amount_eur: must be ≥ 0 with at most 2 decimals');
  });
});
