import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDateFr, formatEurosFr, formatParisDateFr } from './format-fr.ts';

describe('formatEurosFr', () => {
  it.each([
    [0, '0,00 €'],
    [5, '0,05 €'],
    [840, '8,40 €'],
    [99_999, '999,99 €'],
    [100_000, '1 000,00 €'],
    [123_456, '1 234,56 €'],
    [12_345_678_901, '123 456 789,01 €'],
    [-123_456, '-1 234,56 €'],
  ])('%d cents → %j', (cents, text) => {
    expect(formatEurosFr(cents)).toBe(text);
  });

  it('uses only characters Helvetica can draw (no narrow or no-break spaces)', () => {
    expect(formatEurosFr(123_456_789)).not.toMatch(/[\u00a0\u202f]/);
  });

  it('property: matches Intl fr-FR once its special spaces become plain spaces', () => {
    const intl = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(formatEurosFr(cents)).toBe(intl.format(cents / 100).replace(/[\u00a0\u202f]/g, ' '));
      }),
    );
  });

  it('rejects non-integer cents', () => {
    expect(() => formatEurosFr(1.5)).toThrow(RangeError);
  });
});

describe('formatDateFr', () => {
  it('writes dd/mm/yyyy', () => {
    expect(formatDateFr('2026-12-31')).toBe('31/12/2026');
    expect(() => formatDateFr('2026-02-30')).toThrow(RangeError);
  });

  it('takes the Paris date of an instant', () => {
    expect(formatParisDateFr(new Date('2026-11-30T23:30:00Z'))).toBe('01/12/2026');
    expect(formatParisDateFr(new Date('2026-07-31T21:59:00Z'))).toBe('31/07/2026');
  });
});
