import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { type GridRow, indexGrid, priceFor, requirePrice } from './grid.ts';

const row = (partial: Partial<GridRow> & Pick<GridRow, 'maxWeightGrams' | 'firstUnitCents'>): GridRow => ({
  service: 'standard',
  zone: 'paris',
  unitType: 'parcel',
  extraUnitCents: 300,
  ...partial,
});

// Deliberately unsorted: the index must order bands itself.
const grid: GridRow[] = [
  row({ maxWeightGrams: 10_000, firstUnitCents: 1290, extraUnitCents: 650 }),
  row({ maxWeightGrams: 1000, firstUnitCents: 790, extraUnitCents: 390 }),
  row({ maxWeightGrams: 5000, firstUnitCents: 990, extraUnitCents: 490 }),
  row({ zone: 'petite_couronne', maxWeightGrams: 1000, firstUnitCents: 950 }),
  row({ service: 'express', maxWeightGrams: 1000, firstUnitCents: 1260 }),
];
const index = indexGrid(grid);
const query = { service: 'standard', zone: 'paris', unitType: 'parcel', quantity: 1 } as const;

describe('priceFor', () => {
  it.each([
    [1, 790],
    [1000, 790], // the band's maximum is included
    [1001, 990],
    [5000, 990],
    [5001, 1290],
    [10_000, 1290],
  ])('a %d g parcel costs %d cents excl. tax', (weightGrams, excl) => {
    expect(priceFor(index, { ...query, weightGrams })?.exclTaxCents).toBe(excl);
  });

  it('adds the extra-unit price for each unit after the first, then VAT', () => {
    expect(priceFor(index, { ...query, weightGrams: 800, quantity: 3 })).toEqual({
      exclTaxCents: 790 + 2 * 390,
      vatCents: 314, // 313.6 rounded
      inclTaxCents: 1570 + 314,
    });
  });

  it('keeps service, zone and unit type apart', () => {
    expect(priceFor(index, { ...query, zone: 'petite_couronne', weightGrams: 500 })?.exclTaxCents).toBe(950);
    expect(priceFor(index, { ...query, service: 'express', weightGrams: 500 })?.exclTaxCents).toBe(1260);
  });

  it('is null when no band fits', () => {
    expect(priceFor(index, { ...query, weightGrams: 10_001 })).toBeNull();
    expect(priceFor(index, { ...query, zone: 'petite_couronne', weightGrams: 2000 })).toBeNull();
    expect(priceFor(index, { ...query, zone: 'grande_couronne', weightGrams: 1 })).toBeNull();
    expect(priceFor(index, { ...query, unitType: 'pallet', weightGrams: 1 })).toBeNull();
    expect(priceFor(indexGrid([]), { ...query, weightGrams: 1 })).toBeNull();
  });

  it('rejects impossible queries as programming errors', () => {
    expect(() => priceFor(index, { ...query, weightGrams: 0 })).toThrow(RangeError);
    expect(() => priceFor(index, { ...query, weightGrams: 1, quantity: 0 })).toThrow(RangeError);
  });

  it('never charges less for a heavier unit or for more units', () => {
    const weight = fc.integer({ min: 1, max: 10_000 });
    const qty = fc.integer({ min: 1, max: 1000 });
    fc.assert(
      fc.property(weight, weight, qty, qty, (w1, w2, q1, q2) => {
        const a = priceFor(index, { ...query, weightGrams: Math.min(w1, w2), quantity: Math.min(q1, q2) });
        const b = priceFor(index, { ...query, weightGrams: Math.max(w1, w2), quantity: Math.max(q1, q2) });
        return (
          a !== null && b !== null && a.exclTaxCents <= b.exclTaxCents && a.inclTaxCents <= b.inclTaxCents
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe('requirePrice', () => {
  it('returns the price when there is one', () => {
    expect(requirePrice(index, { ...query, weightGrams: 1 }).exclTaxCents).toBe(790);
  });

  it('says what the grid lacks', () => {
    expect(() => requirePrice(index, { ...query, weightGrams: 12_000 })).toThrow(
      'no price for standard parcel to paris weighing 12 kg per unit (at most 10 kg)',
    );
    try {
      requirePrice(index, { ...query, unitType: 'pallet', weightGrams: 1 });
      expect.fail('should throw');
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('unpriceable');
      expect((err as AppError).message).toBe('no price for standard pallet to paris in this grid');
    }
  });
});
