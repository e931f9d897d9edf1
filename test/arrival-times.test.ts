import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import {
  atTheDoor,
  BASE,
  type RecipientsStage,
  recipientsStage,
  roundOf,
  toTheStreet,
} from './support/recipients.ts';

/**
 * Arrival times through the database (docs/arrival-times.md): a round's loading scans estimate its
 * deliveries, door events move them, the tracking page shows the window and the stops before
 * (never a coordinate), the courier's day has the way to each stop, and positions need consent.
 */
let s: RecipientsStage;
let brand: TestBrand;
beforeAll(async () => {
  s = await recipientsStage();
  brand = await createBrandWithKey(s.deps, { name: 'Arrivées' });
});
afterAll(() => s.close());

// Three real addresses of the 11th (test/fixtures/addresses/paris.csv), given as the brand's points.
const POINTS = [
  { address: '5 Rue Keller', lat: 48.85459, lng: 2.376377 },
  { address: '46 Rue de la Folie-Méricourt', lat: 48.864441, lng: 2.371098 },
  { address: '19 Rue de la Roquette', lat: 48.854437, lng: 2.372542 },
];

async function orders(): Promise<{ ref: string; url: string }[]> {
  s.setNow('2026-11-24T09:00:00Z');
  const made = [];
  for (const p of POINTS) {
    const created = await createOrder(s.app, brand, {
      ...VALID_ORDER,
      delivery_address: `${p.address} 75011 Paris`,
      delivery_lat: p.lat,
      delivery_lng: p.lng,
    });
    expect(created.statusCode).toBe(200);
    made.push({ ref: created.data.trackingRef, url: created.data.order.tracking_url });
  }
  return made;
}

const arrivalsOf = async (refs: string[]) =>
  (
    await s.deps.pool.query<{ tracking_ref: string; eta: Date; window_start: Date; stops_before: number }>(
      `SELECT o.tracking_ref, a.eta, a.window_start, a.stops_before FROM order_arrivals a
        JOIN orders o ON o.id = a.order_id WHERE o.tracking_ref = ANY($1) ORDER BY a.stops_before`,
      [refs],
    )
  ).rows;

describe('arrival times on a round', () => {
  it('are estimated at the departure, moved by a late door event, and shown on the tracking page without a place', async () => {
    const made = await orders();
    const refs = made.map((m) => m.ref);
    s.setNow('2026-11-25T08:30:00Z');
    await roundOf(s.deps, '2026-11-25', refs);
    await toTheStreet(s.deps, refs, '2026-11-25', '09:00');
    const first = await arrivalsOf(refs);
    expect(first.map((a) => [a.tracking_ref, a.stops_before])).toEqual(refs.map((r, i) => [r, i]));
    // Left 09:00 Paris (08:00 UTC); no hub set: the first stop at the departure.
    expect(first[0]!.eta.toISOString()).toBe('2026-11-25T08:00:00.000Z');
    expect(first[2]!.eta.getTime()).toBeGreaterThan(first[1]!.eta.getTime() + 240_000);

    const page = await s.app.inject({ method: 'GET', url: made[2]!.url.slice(BASE.length) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('2 arrêts avant le vôtre.');
    expect(page.body).toMatch(/entre 09h00 et 11h00/);
    for (const p of POINTS) {
      expect(page.body).not.toContain(String(p.lat));
      expect(page.body).not.toContain(String(p.lng));
    }

    // The first delivery happens at 11:20: the two left start from there, their windows move.
    s.setNow('2026-11-25T10:21:00Z');
    await atTheDoor(s.deps, refs[0]!, '2026-11-25T11:20:00+01:00', 'delivered');
    const after = await arrivalsOf(refs.slice(1));
    expect(after.map((a) => a.stops_before)).toEqual([0, 1]);
    expect(after[0]!.eta.getTime()).toBeGreaterThan(new Date('2026-11-25T10:20:00Z').getTime());
    expect(after[0]!.window_start.getTime()).toBeGreaterThan(first[1]!.window_start.getTime());
    const moved = await s.app.inject({ method: 'GET', url: made[2]!.url.slice(BASE.length) });
    expect(moved.body).toContain('1 arrêt avant le vôtre.');
  });
});

describe('a round planned for a vehicle', () => {
  it('is timed from its own hub at its vehicle’s speed, not the settings’, and measured by its roads', async () => {
    const made = await orders();
    const refs = made.map((m) => m.ref);
    const suffix = Date.now().toString(36);
    // A hub 2 km north of the first stop (Chapelle International's side), and a van there (the
    // settings' ARRIVAL_VEHICLE is the cargo bike).
    const hub = await s.deps.fleet.addHub(
      { name: `Hub ${suffix}`, address: '20 rue de la Chapelle 75018 Paris', lat: 48.8905, lng: 2.3605 },
      testOperator,
    );
    const bike = await s.deps.fleet.addVehicle(
      { name: `Bike ${suffix}`, kind: 'van', capacityParcels: 80, capacityKg: 600, hub: hub.id },
      testOperator,
    );
    s.setNow('2026-11-27T07:30:00Z');
    const roundId = await roundOf(s.deps, '2026-11-27', refs);
    await s.deps.pool.query('UPDATE rounds SET vehicle_id = $2 WHERE id = $1', [roundId, bike.id]);
    await toTheStreet(s.deps, refs, '2026-11-27', '09:00');
    const [first] = await arrivalsOf(refs);
    const legs = async (profile: 'cargo_bike' | 'van') =>
      (await s.deps.travelTimes.matrix([hub, POINTS[0]!], profile)).durations[0]![1]!;
    const vanSeconds = await legs('van');
    // Left 09:00 Paris (08:00 UTC): the first stop after the drive from the van's hub, at a van's pace.
    expect(first!.eta.getTime()).toBe(
      new Date('2026-11-27T08:00:00Z').getTime() + Math.round(vanSeconds * 1000),
    );
    expect(vanSeconds).not.toBe(await legs('cargo_bike'));
    // The courier's app gives the distance to the next stop by the van's roads too.
    const { courier } = await s.deps.couriers.add(
      { email: `van-${suffix}@example.com`, name: 'Van Courier' },
      testOperator,
    );
    await s.deps.pool.query('UPDATE rounds SET courier_id = $2 WHERE id = $1', [roundId, courier.id]);
    const day = await s.deps.rounds.courierDay(courier.id, '2026-11-27');
    const firstStop = day.rounds[0]!.stops[0] as unknown as { next_stop_distance_m: number };
    const metres = async (profile: 'cargo_bike' | 'van') =>
      (await s.deps.travelTimes.matrix([POINTS[0]!, POINTS[1]!], profile)).distances[0]![1]!;
    expect(firstStop.next_stop_distance_m).toBe(Math.round(await metres('van')));
    expect(firstStop.next_stop_distance_m).not.toBe(Math.round(await metres('cargo_bike')));
  });
});

describe('the courier’s way and positions', () => {
  it('gives Navigate links and the distance to the next stop; positions only with consent, once a minute', async () => {
    const made = await orders();
    const refs = made.map((m) => m.ref);
    const { courier } = await s.deps.couriers.add(
      { email: `c-${Date.now()}@example.com`, name: 'Camille' },
      testOperator,
    );
    const courierId = courier.id;
    s.setNow('2026-11-26T07:30:00Z');
    const roundId = await roundOf(s.deps, '2026-11-26', refs);
    await s.deps.pool.query('UPDATE rounds SET courier_id = $2 WHERE id = $1', [roundId, courierId]);
    const day = await s.deps.rounds.courierDay(courierId, '2026-11-26');
    const stops = day.rounds[0]!.stops as unknown as Array<Record<string, unknown>>;
    expect(stops.map((st) => (st.order as { tracking_ref: string }).tracking_ref)).toEqual(refs);
    expect(stops[0]!.navigation).toEqual({
      geo: `geo:${POINTS[0]!.lat},${POINTS[0]!.lng}?q=${POINTS[0]!.lat},${POINTS[0]!.lng}`,
      google_maps: `https://www.google.com/maps/dir/?api=1&destination=${POINTS[0]!.lat},${POINTS[0]!.lng}`,
      waze: `https://waze.com/ul?ll=${POINTS[0]!.lat},${POINTS[0]!.lng}&navigate=yes`,
      apple_maps: `https://maps.apple.com/?daddr=${POINTS[0]!.lat},${POINTS[0]!.lng}`,
    });
    expect(stops[0]!.next_stop_distance_m).toBeGreaterThan(1000);
    expect(stops[2]!.next_stop_distance_m).toBeNull();

    const position = { latitude: 48.8601, longitude: 2.3702 };
    expect(await s.deps.arrivals.recordPosition(courierId, position)).toEqual({
      accepted: false,
      reason: 'not_sharing',
    });
    await s.deps.arrivals.setSharing(courierId, true);
    expect(await s.deps.arrivals.recordPosition(courierId, position)).toEqual({
      accepted: false,
      reason: 'no_round_in_progress',
    });
    await toTheStreet(s.deps, refs, '2026-11-26', '08:30');
    s.setNow('2026-11-26T08:00:00Z');
    expect(await s.deps.arrivals.recordPosition(courierId, position)).toEqual({ accepted: true });
    s.setNow('2026-11-26T08:00:30Z');
    expect(await s.deps.arrivals.recordPosition(courierId, position)).toEqual({
      accepted: false,
      reason: 'too_soon',
    });
    await expect(
      s.deps.arrivals.recordPosition(courierId, { latitude: 91, longitude: 2 }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
    s.setNow('2026-11-28T08:01:00Z');
    expect(await s.deps.arrivals.purgePositions()).toBeGreaterThanOrEqual(1);
    await s.deps.arrivals.setSharing(courierId, false);
    expect(await s.deps.arrivals.sharing(courierId)).toEqual({ sharing: false, since: null });
  });
});
