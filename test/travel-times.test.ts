import { afterEach, describe, expect, it } from 'vitest';
import { distanceMetres, type GeoPoint } from '../src/domain/places/location.ts';
import { estimatedMatrix, estimatedTravelTimes } from '../src/domain/places/travel-estimate.ts';
import { VEHICLE_SPECS } from '../src/domain/places/vehicles.ts';
import { osrmTravelTimes } from '../src/infra/geo/osrm-travel-times.ts';
import { fixtureAddresses } from './support/fake-ban/addresses.ts';
import { type FakeOsrm, startFakeOsrm } from './support/fake-osrm.ts';

/** OSRM's table adapter against its fake (test/support/fake-osrm.ts), and the offline estimate. */
let osrm: FakeOsrm;
afterEach(async () => {
  await osrm?.close();
});

const POINTS: GeoPoint[] = fixtureAddresses()
  .slice(0, 7)
  .map(({ lat, lng }) => ({ lat, lng }));

/** The fake's "road" distance between two points (its city grid: Manhattan metres). */
const grid = (a: GeoPoint, b: GeoPoint) =>
  Math.round(
    (Math.abs(a.lat - b.lat) * 111_195 +
      Math.abs(a.lng - b.lng) * 111_195 * Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180)) *
      10,
  ) / 10;

describe('travel times', () => {
  it('estimates offline: great-circle × detour at the profile’s speed, symmetric, 0 on the diagonal', async () => {
    const m = await estimatedTravelTimes.matrix(POINTS, 'cargo_bike');
    expect(m.source).toBe('estimate');
    const { speedKmh, detour } = VEHICLE_SPECS.cargo_bike;
    for (let i = 0; i < POINTS.length; i++) {
      expect(m.durations[i]![i]).toBe(0);
      for (let j = 0; j < POINTS.length; j++) {
        expect(m.distances[i]![j]).toBe(m.distances[j]![i]);
        expect(m.distances[i]![j]).toBe(Math.round(distanceMetres(POINTS[i]!, POINTS[j]!) * detour));
        expect(Math.abs(m.durations[i]![j]! - m.distances[i]![j]! / (speedKmh / 3.6))).toBeLessThanOrEqual(1);
      }
    }
    // A van is faster than a cargo bike over the same distance.
    const van = estimatedMatrix(POINTS, 'van');
    expect(van.durations[0]![1]!).toBeLessThan(m.durations[0]![1]! * (VEHICLE_SPECS.van.detour / detour));
  });

  it("reads OSRM's table (durations, distances) for a profile it routes", async () => {
    osrm = await startFakeOsrm();
    const router = osrmTravelTimes({ baseUrl: osrm.url, profiles: ['van'], timeoutMs: 5000 });
    const m = await router.matrix(POINTS, 'van');
    expect(m.source).toBe('road');
    expect(m.distances[0]![3]).toBe(Math.round(grid(POINTS[0]!, POINTS[3]!)));
    expect(m.durations[0]![3]).toBe(Math.round(grid(POINTS[0]!, POINTS[3]!) / (25 / 3.6)));
    expect(osrm.requests).toHaveLength(1);
    expect(osrm.requests[0]).toMatch(/^\/table\/v1\/driving\/2\.342072,48\.859954;/);
    expect(osrm.requests[0]).toContain('annotations=duration%2Cdistance');
    // A profile its data does not route is estimated without asking it.
    expect((await router.matrix(POINTS, 'cargo_bike')).source).toBe('estimate');
    expect(osrm.requests).toHaveLength(1);
  });

  it('asks a matrix larger than --max-table-size in blocks, the same as one table', async () => {
    osrm = await startFakeOsrm({ maxTableSize: 3 });
    const router = osrmTravelTimes({
      baseUrl: osrm.url,
      profiles: ['van'],
      timeoutMs: 5000,
      maxTableSize: 3,
    });
    const m = await router.matrix(POINTS, 'van');
    expect(m.source).toBe('road');
    // 3 × 3 blocks, but the last point to itself (nothing to ask).
    expect(osrm.requests.length).toBe(8);
    for (let i = 0; i < POINTS.length; i++)
      for (let j = 0; j < POINTS.length; j++)
        expect(m.distances[i]![j]).toBe(Math.round(grid(POINTS[i]!, POINTS[j]!)));
  });

  it.each([
    ['TooBig', () => startFakeOsrm({ maxTableSize: 2 }), POINTS],
    ['NoSegment', () => startFakeOsrm(), [...POINTS, { lat: 45.764, lng: 4.8357 }]],
  ] as const)(
    'falls back to the estimate on %s, with the reason told and logged',
    async (code, start, points) => {
      osrm = await start();
      const reasons: string[] = [];
      const logs: string[] = [];
      const router = osrmTravelTimes({
        baseUrl: osrm.url,
        profiles: ['van'],
        timeoutMs: 5000,
        onFallback: (r) => reasons.push(r),
        log: (l) => logs.push(l),
      });
      const m = await router.matrix(points, 'van');
      expect(m).toEqual(estimatedMatrix(points, 'van'));
      expect(reasons).toEqual([code]);
      expect(logs).toEqual([expect.stringContaining(`(${code})`)]);
    },
  );

  it('falls back when the router is down, slow or failing: never a throw', async () => {
    osrm = await startFakeOsrm();
    const reasons: string[] = [];
    const router = osrmTravelTimes({
      baseUrl: osrm.url,
      profiles: ['van'],
      timeoutMs: 300,
      onFallback: (r) => reasons.push(r),
    });
    osrm.setMode({ kind: 'failing', status: 503 });
    expect((await router.matrix(POINTS, 'van')).source).toBe('estimate');
    osrm.setMode({ kind: 'slow', delayMs: 2000 });
    expect((await router.matrix(POINTS, 'van')).source).toBe('estimate');
    osrm.setMode({ kind: 'down' });
    expect((await router.matrix(POINTS, 'van')).source).toBe('estimate');
    expect(reasons).toEqual(['HTTP 503', 'timeout', 'unreachable']);
  });
});
