import { describe, expect, it } from 'vitest';
import { loadDefaultGrid } from './default-grid.ts';
import { type GridRow, indexGrid } from './grid.ts';
import { findGridHoles, offeredServices, summariseGridHoles } from './grid-holes.ts';

const row = (over: Partial<GridRow>): GridRow => ({
  service: 'standard',
  zone: 'paris',
  unitType: 'parcel',
  maxWeightGrams: 5000,
  firstUnitCents: 900,
  extraUnitCents: 100,
  ...over,
});
const everywhere = (over: Partial<GridRow>): GridRow[] =>
  (['paris', 'petite_couronne', 'grande_couronne'] as const).map((zone) => row({ ...over, zone }));

describe('findGridHoles', () => {
  it('finds none in the shipped default grid', () => {
    expect(findGridHoles(indexGrid(loadDefaultGrid()))).toEqual([]);
  });

  it('finds none in an empty grid', () => {
    expect(findGridHoles(indexGrid([]))).toEqual([]);
  });

  it('finds a zone a service does not serve', () => {
    const grid = indexGrid([...everywhere({ service: 'standard' }), row({ service: 'express' })]);
    expect(findGridHoles(grid)).toEqual([
      { service: 'express', zone: 'petite_couronne', unitType: 'parcel', maxWeightGrams: 5000 },
      { service: 'express', zone: 'grande_couronne', unitType: 'parcel', maxWeightGrams: 5000 },
    ]);
  });

  it('finds the weight bands a service stops short of, in every zone', () => {
    const grid = indexGrid([
      ...everywhere({ service: 'standard', maxWeightGrams: 2000 }),
      ...everywhere({ service: 'standard', maxWeightGrams: 30_000 }),
      ...everywhere({ service: 'express', maxWeightGrams: 5000 }),
    ]);
    const holes = findGridHoles(grid);
    expect(holes).toHaveLength(3);
    expect(holes.every((h) => h.service === 'express' && h.maxWeightGrams === 30_000)).toBe(true);
  });

  it('does not count bands cut differently as holes: each service prices every weight up to its heaviest', () => {
    const grid = indexGrid([
      ...everywhere({ service: 'standard', maxWeightGrams: 2000 }),
      ...everywhere({ service: 'standard', maxWeightGrams: 30_000 }),
      ...everywhere({ service: 'express', maxWeightGrams: 5000 }),
      ...everywhere({ service: 'express', maxWeightGrams: 30_000 }),
    ]);
    expect(findGridHoles(grid)).toEqual([]);
  });

  it('finds a unit type one service prices and another does not, with that unit type’s own bands', () => {
    const grid = indexGrid([
      ...everywhere({ service: 'standard' }),
      ...everywhere({ service: 'express' }),
      ...everywhere({ service: 'standard', unitType: 'pallet', maxWeightGrams: 500_000 }),
    ]);
    const holes = findGridHoles(grid);
    expect(holes).toHaveLength(3);
    expect(holes).toContainEqual({
      service: 'express',
      zone: 'paris',
      unitType: 'pallet',
      maxWeightGrams: 500_000,
    });
  });

  it('lists the services a grid offers, fastest first', () => {
    expect(offeredServices(indexGrid([row({ service: 'economy' }), row({ service: 'express' })]))).toEqual([
      'express',
      'economy',
    ]);
  });
});

describe('summariseGridHoles', () => {
  it('groups holes by service, unit type and zones, listing the bands', () => {
    const grid = indexGrid([
      ...everywhere({ service: 'standard', maxWeightGrams: 2000 }),
      ...everywhere({ service: 'standard', maxWeightGrams: 30_000 }),
      row({ service: 'express', maxWeightGrams: 500 }),
      ...everywhere({ service: 'standard', unitType: 'pallet', maxWeightGrams: 500_000 }),
    ]);
    expect(summariseGridHoles(findGridHoles(grid))).toEqual([
      'express parcel in every zone: no price for units up to 2 kg, 30 kg',
      'express parcel in petite_couronne, grande_couronne: no price for units up to 500 g',
      'express pallet in every zone: no price for units up to 500 kg',
    ]);
  });
});
