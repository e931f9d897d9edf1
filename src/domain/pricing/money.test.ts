import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centsToEuros,
  eurosToCents,
  formatEuros,
  hasAtMostTwoDecimals,
  inclTaxCents,
  parseEurosToCents,
  VAT_RATE,
  vatCents,
} from './money.ts';

describe('vatCents', () => {
  it.each([
    [0, 0],
    [1, 0], // 0.2 → 0
    [2, 0], // 0.4 → 0
    [3, 1], // 0.6 → 1
    [247, 49], // 49.4 → 49
    [248, 50], // 49.6 → 50
    [700, 140],
    [840, 168],
    [999, 200], // 199.8 → 200
    [-248, -50],
  ])('VAT on %d cents is %d', (excl, vat) => {
    expect(vatCents(excl)).toBe(vat);
  });

  it('is 20 % rounded to the nearest cent, half up', () => {
    expect(VAT_RATE).toBe(0.2);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (excl) => {
        const vat = vatCents(excl);
        return (
          Number.isInteger(vat) && Math.abs(vat - excl * 0.2) <= 0.5 && inclTaxCents(excl) === excl + vat
        );
      }),
      { numRuns: 300 },
    );
  });

  it('rejects fractional cents', () => {
    expect(() => vatCents(1.5)).toThrow(RangeError);
  });
});

describe('euros and cents', () => {
  it.each([
    [840, 8.4],
    [1008, 10.08],
    [0, 0],
    [5, 0.05],
    [123456, 1234.56],
  ])('%d cents ⇄ %d €', (cents, euros) => {
    expect(centsToEuros(cents)).toBe(euros);
    expect(eurosToCents(euros)).toBe(cents);
  });

  it('converts any amount with at most 2 decimals exactly, both ways', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000_00 }), (cents) => {
        const euros = centsToEuros(cents);
        return hasAtMostTwoDecimals(euros) && eurosToCents(euros) === cents;
      }),
      { numRuns: 500 },
    );
  });

  it('is exact where floating point multiplication is not', () => {
    expect(1.15 * 100).not.toBe(115);
    expect(eurosToCents(1.15)).toBe(115);
    expect(eurosToCents(0.29)).toBe(29);
  });

  it('refuses more than 2 decimals', () => {
    expect(hasAtMostTwoDecimals(8.4)).toBe(true);
    expect(hasAtMostTwoDecimals(8.456)).toBe(false);
    expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
    expect(() => eurosToCents(8.456)).toThrow(RangeError);
    expect(() => eurosToCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it.each([
    ['8.4', 840],
    ['8.40', 840],
    ['8,40', 840],
    [' 12 ', 1200],
    ['0.05', 5],
    ['-3', -300],
    ['8.456', null],
    ['8.', null],
    ['€8', null],
    ['', null],
    ['1e3', null],
  ])('parseEurosToCents(%j) → %j', (text, cents) => {
    expect(parseEurosToCents(text)).toBe(cents);
  });

  it('formats with two decimals', () => {
    expect(formatEuros(840)).toBe('8.40');
    expect(formatEuros(5)).toBe('0.05');
    expect(formatEuros(-1234)).toBe('-12.34');
  });
});
