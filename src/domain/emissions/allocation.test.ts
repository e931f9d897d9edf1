import { describe, expect, it } from 'vitest';
import { allocate, legDataLevel, orderEmission, type RoundLeg, roundDistanceM } from './allocation.ts';
import { gramsPerKm } from './emission-factors.ts';

const leg = (over: Partial<RoundLeg> = {}): RoundLeg => ({
  roundId: 'rnd_0000000000000001',
  date: '2026-11-24',
  vehicle: null,
  distanceM: null,
  deliveries: [
    { orderId: '1', parcels: 1, zone: 'paris', service: 'standard' },
    { orderId: '2', parcels: 2, zone: 'petite_couronne', service: 'standard' },
  ],
  ...over,
});

describe('allocate (largest remainder)', () => {
  it('shares a total in whole units that add up to the rounded total', () => {
    expect(allocate(7489.2, [1, 2, 3])).toEqual([1248, 2496, 3745]);
    expect(allocate(10, [1, 1, 1])).toEqual([4, 3, 3]);
    expect(allocate(0, [1, 2])).toEqual([0, 0]);
    expect(allocate(5, [])).toEqual([]);
  });

  it('always sums to the rounded total, whatever the weights', () => {
    for (let seed = 1; seed < 200; seed++) {
      const weights = Array.from({ length: (seed % 17) + 1 }, (_, i) => ((seed * (i + 7)) % 9) + 1);
      const total = (seed * 97.31) % 5000;
      const shares = allocate(total, weights);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(Math.round(total));
      expect(shares.every((s) => s >= 0 && Number.isInteger(s))).toBe(true);
    }
  });
});

describe('orderEmission', () => {
  it('uses the default distance of one stop and the diesel van on no round (level 1)', () => {
    const e = orderEmission({ orderId: '9', zone: 'paris', service: 'standard' }, []);
    expect(e).toEqual({ grams: 474, dataLevel: 1, vehicle: 'van', distanceM: 1500 });
  });

  it('a round without its own distance sums the default per stop; the data level says what was known', () => {
    expect(roundDistanceM(leg())).toBe(1500 + 3000);
    expect(legDataLevel(leg())).toBe(1);
    expect(legDataLevel(leg({ vehicle: 'cargo_bike' }))).toBe(2);
    expect(legDataLevel(leg({ distanceM: 9000 }))).toBe(2);
    expect(legDataLevel(leg({ distanceM: 9000, vehicle: 'electric_van' }))).toBe(3);
  });

  it('shares the round by parcel', () => {
    // 4.5 km × 316 g/km = 1422 g, 1 and 2 parcels of 3.
    const one = orderEmission({ orderId: '1', zone: 'paris', service: 'standard' }, [leg()]);
    const two = orderEmission({ orderId: '2', zone: 'petite_couronne', service: 'standard' }, [leg()]);
    expect([one.grams, two.grams]).toEqual([474, 948]);
    expect([one.distanceM, two.distanceM]).toEqual([1500, 3000]);
  });

  it("adds every round the parcel rode (a failed attempt's too), at the weakest data level", () => {
    const first = leg({ roundId: 'rnd_a', vehicle: 'van', distanceM: 20_000 });
    const second = leg({ roundId: 'rnd_b', date: '2026-11-25' });
    const e = orderEmission({ orderId: '2', zone: 'petite_couronne', service: 'standard' }, [first, second]);
    // 20 km × 316 = 6320 g → 2/3 = 4213.33 → 4213 (the remainder goes to the larger fraction: order 1's .67);
    // then the default round: 1422 g → 948.
    expect(e.grams).toBe(4213 + 948);
    expect(e.dataLevel).toBe(1);
    expect(e.distanceM).toBe(13_333 + 3000);
  });

  it('gives the factors as the product of energy use and energy factor', () => {
    expect(gramsPerKm('van')).toBeCloseTo(316, 9);
    expect(gramsPerKm('electric_van')).toBeCloseTo(13, 9);
    expect(gramsPerKm('cargo_bike')).toBeCloseTo(0.78, 9);
    expect(gramsPerKm('on_foot')).toBe(0);
  });
});
