import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCreditNoteNumber, formatInvoiceNumber, parseInvoiceNumber } from './invoice-number.ts';

describe('formatInvoiceNumber', () => {
  it('pads the sequence to 6 digits', () => {
    expect(formatInvoiceNumber(2026, 42)).toBe('F2026-000042');
    expect(formatInvoiceNumber(2026, 1)).toBe('F2026-000001');
    expect(formatInvoiceNumber(2027, 999_999)).toBe('F2027-999999');
  });

  it.each([0, -1, 1_000_000, 1.5, Number.NaN])('rejects sequence %d', (sequence) => {
    expect(() => formatInvoiceNumber(2026, sequence)).toThrow(RangeError);
  });

  it.each([999, 10_000, 2026.5])('rejects year %d', (year) => {
    expect(() => formatInvoiceNumber(year, 1)).toThrow(RangeError);
  });
});

describe('formatCreditNoteNumber', () => {
  it('uses the A series with the same shape and bounds', () => {
    expect(formatCreditNoteNumber(2026, 7)).toBe('A2026-000007');
    expect(() => formatCreditNoteNumber(2026, 1_000_000)).toThrow(RangeError);
  });
});

describe('parseInvoiceNumber', () => {
  it('reads a number back', () => {
    expect(parseInvoiceNumber('F2026-000042')).toEqual({ year: 2026, sequence: 42 });
  });

  it.each([
    'F2026-000000',
    'F2026-42',
    'f2026-000042',
    'F2026-0000042',
    'F26-000042',
    ' F2026-000042',
    'inv_x',
  ])('rejects %j', (value) => {
    expect(parseInvoiceNumber(value)).toBeNull();
  });

  it('round-trips every valid number and keeps text order = numeric order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2999 }),
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 1, max: 999_999 }),
        (year, a, b) => {
          const na = formatInvoiceNumber(year, a);
          expect(parseInvoiceNumber(na)).toEqual({ year, sequence: a });
          const nb = formatInvoiceNumber(year, b);
          expect(Math.sign(na.localeCompare(nb, 'en'))).toBe(Math.sign(a - b));
        },
      ),
    );
  });
});
