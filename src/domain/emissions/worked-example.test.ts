import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { orderEmission, type RoundLeg } from './allocation.ts';

/** docs/emissions.md, "Worked example": the same rounds, the same grams. */
const ROUND_1: RoundLeg = {
  roundId: 'rnd_1',
  date: '2026-11-24',
  vehicle: 'van',
  // Finished: the distance it was driven (data level 3).
  distanceM: 23_700,
  distanceSource: 'driven',
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
  // Not finished yet when computed: the optimiser's planned distance (data level 2).
  distanceM: 18_400,
  distanceSource: 'planned',
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
      A: { grams: 1252, distanceM: 3950, dataLevel: 3, vehicle: 'van' },
      B: { grams: 2504, distanceM: 7900, dataLevel: 3, vehicle: 'van' },
      C: { grams: 3757, distanceM: 11_850, dataLevel: 3, vehicle: 'van' },
      D: { grams: 55, distanceM: 4600, dataLevel: 2, vehicle: 'electric_van' },
      E: { grams: 166, distanceM: 13_800, dataLevel: 2, vehicle: 'electric_van' },
      F: { grams: 476, distanceM: 1500, dataLevel: 1, vehicle: 'van' },
    });
    const total = Object.values(orders).reduce((sum, o) => sum + o.grams, 0);
    expect(total).toBe(8210);
  });

  it('is the example the document shows', () => {
    const doc = readFileSync(new URL('../../../docs/emissions.md', import.meta.url), 'utf8');
    for (const text of [
      '23.7 km × 317 g/km = **7 512.9 g**',
      '**A = 1 252 g, B = 2 504 g, C = 3 757 g** (sum 7 513 g)',
      '18.4 km × 12 g/km = **220.8 g**',
      '**D = 55 g, E = 166 g** (sum 221 g)',
      '1.5 km × 317 g/km = **475.5 g**, rounded to **476 g**',
      '| **total** | | 6 | 11 | 43.600 km | **8 210 g** (8.210 kg) |',
    ]) {
      expect(doc).toContain(text);
    }
  });
});
