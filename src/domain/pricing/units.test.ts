import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors.ts';
import { parseQuantity, parseUnitType, parseWeightGrams } from './units.ts';

const RUNS = { numRuns: 300 };

function fieldError(fn: () => unknown): { field: string | undefined; message: string } {
  try {
    fn();
  } catch (err) {
    if (isAppError(err) && err.code === 'invalid_request') {
      return { field: err.details?.[0]?.field, message: err.message };
    }
    throw err;
  }
  throw new Error('expected an invalid_request error');
}

describe('parseUnitType', () => {
  it.each([
    ['parcel', 'parcel'],
    ['PARCEL', 'parcel'],
    ['  Colis ', 'parcel'],
    ['envelope', 'envelope'],
    ['pli', 'envelope'],
    ['Enveloppe', 'envelope'],
    ['bulky', 'bulky'],
    ['ENCOMBRANT', 'bulky'],
    ['pallet', 'pallet'],
    ['Palette', 'pallet'],
  ])('%j → %s', (input, expected) => {
    expect(parseUnitType(input)).toBe(expected);
  });

  it.each(['', 'box', 'parcels', 'col is', 42, null])('rejects %j listing the accepted values', (input) => {
    const error = fieldError(() => parseUnitType(input));
    expect(error.field).toBe('unit_type');
    expect(error.message).toContain('parcel, envelope, bulky, pallet');
    expect(error.message).toContain('colis');
  });
});

describe('parseWeightGrams', () => {
  it.each([
    ['2.5', 2500],
    ['2.5kg', 2500],
    ['2,5 kg', 2500],
    ['2,5kg', 2500],
    ['500g', 500],
    ['500 g', 500],
    ['2 KG', 2000],
    ['2 Kg', 2000],
    [' 1 ', 1000],
    ['.5', 500],
    ['0.07', 70],
    ['1.0005', 1001], // rounds up to the gram
    ['0.4g', 1],
    ['12.3 G', 13],
    ['2000kg', 2_000_000],
    [2.5, 2500],
    [0.07, 70],
    [1, 1000],
    [1e-9, 1],
  ])('%j → %d g', (input, grams) => {
    expect(parseWeightGrams(input)).toBe(grams);
  });

  it.each([
    '',
    'abc',
    'kg',
    '-1',
    '0',
    '0kg',
    '0.0',
    '2.5 lb',
    '2..5',
    '2.5.1',
    '1e3',
    '2 5kg',
    '2000.001kg',
    '99999999999999999999',
    0,
    -2,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2001,
  ])('rejects %j', (input) => {
    expect(fieldError(() => parseWeightGrams(input)).field).toBe('unit_weight');
  });

  it.each([2001, '2000.001kg', 1e15, 1e308, '99999999999999999999', '9007199254740993 kg'])(
    'says %j is over the maximum',
    (input) => {
      expect(fieldError(() => parseWeightGrams(input)).message).toBe(
        'unit_weight: must be at most 2000 kg per unit',
      );
    },
  );

  it('round-trips whole grams written with a g suffix', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_000_000 }), fc.constantFrom('g', ' g', 'G'), (g, unit) => {
        return parseWeightGrams(`${g}${unit}`) === g;
      }),
      RUNS,
    );
  });

  it('reads kilograms as 1000 grams, with or without the kg suffix', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2000 }), (kg) => {
        const g = kg * 1000;
        return (
          parseWeightGrams(`${kg}kg`) === g &&
          parseWeightGrams(String(kg)) === g &&
          parseWeightGrams(kg) === g &&
          parseWeightGrams(`${g}g`) === g
        );
      }),
      RUNS,
    );
  });

  it('treats a decimal comma like a dot and matches numeric input', () => {
    const decimal = fc
      .tuple(fc.integer({ min: 0, max: 1999 }), fc.integer({ min: 0, max: 999_999 }))
      .filter(([whole, frac]) => whole > 0 || frac > 0)
      .map(([whole, frac]) => `${whole}.${String(frac).padStart(6, '0')}`);
    fc.assert(
      fc.property(decimal, (text) => {
        const grams = parseWeightGrams(text);
        return (
          parseWeightGrams(text.replace('.', ',')) === grams &&
          parseWeightGrams(`${text} kg`) === grams &&
          parseWeightGrams(Number(text)) === grams
        );
      }),
      RUNS,
    );
  });

  it('never under-weighs: grams ≥ the kilograms given, by less than one gram', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.000001, max: 2000, noNaN: true }), (kg) => {
        const grams = parseWeightGrams(kg);
        return grams >= kg * 1000 - 1e-6 && grams - kg * 1000 < 1 && Number.isInteger(grams);
      }),
      RUNS,
    );
  });
});

describe('parseQuantity', () => {
  it.each([
    [1, 1],
    [1000, 1000],
    ['3', 3],
    [' 12 ', 12],
  ])('%j → %d', (input, expected) => {
    expect(parseQuantity(input)).toBe(expected);
  });

  it.each([0, -1, 1.5, 1001, '1.5', '', 'two', null, undefined, Number.NaN, '1e2'])('rejects %j', (input) => {
    expect(fieldError(() => parseQuantity(input)).field).toBe('quantity');
  });
});
