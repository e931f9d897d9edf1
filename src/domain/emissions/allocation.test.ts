import { describe, expect, it } from 'vitest';
import { allocate, legDataLevel, orderEmission, type RoundLeg, roundDistanceM } from './allocation.ts';
import { DEFAULT_EMISSION_SETTINGS, gramsPerKm, methodId } from './emission-settings.ts';

const leg = (over: Partial<RoundLeg> = {}): RoundLeg => ({
  roundId: 'rnd_0000000000000001',
  date: '2026-11-24',
  vehicle: null,
  distanceM: null,
  distanceSource: null,
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
    // 1.5 km × 317 g/km = 475.5 g → 476.
    expect(e).toEqual({ grams: 476, dataLevel: 1, vehicle: 'van', distanceM: 1500 });
  });

  it('a round without its own distance sums the default per stop; the data level says what was known', () => {
    expect(roundDistanceM(leg())).toBe(1500 + 3000);
    expect(legDataLevel(leg())).toBe(1);
    // Default distance, or no vehicle (the default factor): level 1.
    expect(legDataLevel(leg({ vehicle: 'cargo_bike' }))).toBe(1);
    expect(legDataLevel(leg({ distanceM: 9000, distanceSource: 'planned' }))).toBe(1);
    // The vehicle and its planned distance: 2; the distance it was driven: 3.
    expect(legDataLevel(leg({ distanceM: 9000, distanceSource: 'planned', vehicle: 'electric_van' }))).toBe(
      2,
    );
    expect(legDataLevel(leg({ distanceM: 9000, distanceSource: 'driven', vehicle: 'electric_van' }))).toBe(3);
  });

  it('shares the round by parcel', () => {
    // 4.5 km × 317 g/km = 1426.5 g → 1427, 1 and 2 parcels of 3: 475.67 and 951.33.
    const one = orderEmission({ orderId: '1', zone: 'paris', service: 'standard' }, [leg()]);
    const two = orderEmission({ orderId: '2', zone: 'petite_couronne', service: 'standard' }, [leg()]);
    expect([one.grams, two.grams]).toEqual([476, 951]);
    expect([one.distanceM, two.distanceM]).toEqual([1500, 3000]);
  });

  it("adds every round the parcel rode (a failed attempt's too), at the weakest data level", () => {
    const first = leg({ roundId: 'rnd_a', vehicle: 'van', distanceM: 20_000, distanceSource: 'driven' });
    const second = leg({ roundId: 'rnd_b', date: '2026-11-25' });
    const e = orderEmission({ orderId: '2', zone: 'petite_couronne', service: 'standard' }, [first, second]);
    // 20 km × 317 = 6340 g → 2/3 = 4226.67 → 4227 (1/3 = 2113.33 → 2113);
    // then the default round: 1427 g → 951.
    expect(e.grams).toBe(4227 + 951);
    expect(e.dataLevel).toBe(1);
    expect(e.distanceM).toBe(13_333 + 3000);
  });

  it('gives the factors as the product of energy use and energy factor', () => {
    // Gazole routier 3.17 kg CO₂e/l × 10 l/100 km; electricity 0.048 kg CO₂e/kWh × 25 and × 1.5 kWh/100 km.
    expect(gramsPerKm('van')).toBeCloseTo(317, 9);
    expect(gramsPerKm('electric_van')).toBeCloseTo(12, 9);
    expect(gramsPerKm('cargo_bike')).toBeCloseTo(0.72, 9);
    expect(gramsPerKm('on_foot')).toBe(0);
  });

  it('shares by parcel × direct distance from the hub under the distance rule', () => {
    const hub = { lat: 48.9, lng: 2.35 };
    const near = { lat: 48.89, lng: 2.35 }; // ≈ 1.11 km
    const far = { lat: 48.87, lng: 2.35 }; // ≈ 3.34 km
    const round = leg({
      vehicle: 'van',
      distanceM: 10_000,
      distanceSource: 'driven',
      hub,
      deliveries: [
        { orderId: '1', parcels: 2, zone: 'paris', service: 'standard', point: near },
        { orderId: '2', parcels: 1, zone: 'paris', service: 'standard', point: far },
      ],
    });
    const distance = { ...DEFAULT_EMISSION_SETTINGS, allocation: 'distance' as const };
    // 10 km × 317 = 3170 g; weights 2 × 1.11 and 1 × 3.34 km: 2/5 and 3/5.
    const one = orderEmission({ orderId: '1', zone: 'paris', service: 'standard' }, [round], distance);
    const two = orderEmission({ orderId: '2', zone: 'paris', service: 'standard' }, [round], distance);
    expect([one.grams, two.grams]).toEqual([1268, 1902]);
    // By parcel (the default): 2/3 and 1/3.
    const byParcel = orderEmission({ orderId: '1', zone: 'paris', service: 'standard' }, [round]);
    expect(byParcel.grams).toBe(2113);
    // A delivery without its place: parcels for the whole round.
    const unplaced = leg({
      ...round,
      deliveries: [round.deliveries[0]!, { ...round.deliveries[1]!, point: null }],
    });
    expect(
      orderEmission({ orderId: '1', zone: 'paris', service: 'standard' }, [unplaced], distance).grams,
    ).toBe(2113);
  });

  it("names the operator's factors and rule in the method identifier", () => {
    expect(methodId()).toBe('info-ges-2017-parcel-v2');
    const own = {
      ...DEFAULT_EMISSION_SETTINGS,
      diesel: { gramsPerLitre: 3100, source: 'Base Carbone, Gazole B7, 2024' },
    };
    expect(methodId(own)).toBe('op-d3100-e48-u10_25_1.5-parcel-v2');
    expect(gramsPerKm('van', own)).toBeCloseTo(310, 9);
    expect(methodId({ ...DEFAULT_EMISSION_SETTINGS, allocation: 'distance' })).toBe(
      'info-ges-2017-distance-v2',
    );
  });
});
