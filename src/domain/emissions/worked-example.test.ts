import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { orderEmission, type RoundLeg } from './allocation.ts';

/** docs/emissions.md, "Worked example": the same rounds, the same grams. */
const ROUND_1: RoundLeg = {
  roundId: 'rnd_1',
  date: '2026-11-24',
  vehicle: 'van',
  distanceM: 23_700,
  deliveries: [
    { orderId: 'A', parcels: 1, zone: 'paris', service: 'standard' },
    { orderId: 'B', parcels: 2, zone: 'paris', service: 'standard' },
    { orderId: 'C', parcels: 3, zone: 'paris', service: 'standard' },
  ],
};
const ROUND_2: RoundLeg = {
  roundId: 'rnd_2',
  date: '2026-11-24',
  vehicle: 'electric_van',
  distanceM: 18_400,
  deliveries: [
    { orderId: 'D', parcels: 1, zone: 'paris', service: 'standard' },
    { orderId: 'E', parcels: 3, zone: 'paris', service: 'standard' },
  ],
};

const figure = (orderId: string, legs: RoundLeg[]) =>
  orderEmission({ orderId, zone: 'paris', service: 'standard' }, legs);

describe('the worked example of docs/emissions.md', () => {
  const rounds = [ROUND_1, ROUND_2];
  const orders = {
    A: figure('A', rounds),
    B: figure('B', rounds),
    C: figure('C', rounds),
    D: figure('D', rounds),
    E: figure('E', rounds),
    F: figure('F', []),
  };

  it('gives each order the grams, distance and level written there', () => {
    expect(orders).toEqual({
      A: { grams: 1248, distanceM: 3950, dataLevel: 3, vehicle: 'van' },
      B: { grams: 2496, distanceM: 7900, dataLevel: 3, vehicle: 'van' },
      C: { grams: 3745, distanceM: 11_850, dataLevel: 3, vehicle: 'van' },
      D: { grams: 60, distanceM: 4600, dataLevel: 3, vehicle: 'electric_van' },
      E: { grams: 179, distanceM: 13_800, dataLevel: 3, vehicle: 'electric_van' },
      F: { grams: 474, distanceM: 1500, dataLevel: 1, vehicle: 'van' },
    });
    const total = Object.values(orders).reduce((sum, o) => sum + o.grams, 0);
    expect(total).toBe(8202);
  });

  it('is the example the document shows', () => {
    const doc = readFileSync(new URL('../../../docs/emissions.md', import.meta.url), 'utf8');
    for (const text of [
      '23.7 km × 316 g/km = **7 489.2 g**',
      '**A = 1 248 g, B = 2 496 g, C = 3 745 g** (sum 7 489 g)',
      '18.4 km × 13 g/km = **239.2 g**',
      '**D = 60 g, E = 179 g** (sum 239 g)',
      '1.5 km × 316 g/km = **474 g**',
      '| **total** | | 6 | 11 | 43.600 km | **8.202 kg** |',
    ]) {
      expect(doc).toContain(text);
    }
  });
});
