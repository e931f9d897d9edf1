import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from './support/account-browser.ts';
import { call, createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

/**
 * Optimised rounds end to end (issue 37, docs/planning.md) on a database of their own: the fleet
 * (hubs, vehicles, shifts), a realistic day of Paris addresses (real coordinates from
 * ../shared/bench-data/addresses, in test/fixtures/paris-addresses.csv), `POST /ops/v1/rounds/plan {optimise: true}`: capacities, shifts,
 * the unplaced stops and their reasons; pins surviving a re-plan; moves; stale versions refused.
 */
let t: ScratchTestApp;
let brand: TestBrand;
const DAY = '2026-12-02';
const OPS = { authorization: 'Bearer test-ops-token-0123456789abcdefgh' };
const ops = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
  call(t.app, {
    method,
    url: `/ops/v1${url}`,
    headers: OPS,
    ...(payload !== undefined && { payload: payload as object }),
  });

const ORDERS = 48;
const couriers: Record<string, string> = {};
const refs: string[] = [];

function parisAddresses(): { address: string; lat: number; lng: number }[] {
  const lines = readFileSync(new URL('./fixtures/paris-addresses.csv', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .slice(2);
  return lines.map((line) => {
    const m = /^"(.*)",(\d{5}),([\d.]+),([\d.]+)$/.exec(line.trim())!;
    return { address: m[1]!.replace(',', ''), lat: Number(m[3]), lng: Number(m[4]) };
  });
}

async function courier(name: string) {
  const { courier } = await t.deps.couriers.add(
    { email: uniqueEmail(name.split(' ')[0]!.toLowerCase()), name, password: PASSWORD },
    testOperator,
  );
  return courier.id;
}

const auditCount = async (action: string) =>
  Number((await t.pool.query('SELECT count(*) FROM audit_events WHERE action = $1', [action])).rows[0].count);

beforeAll(async () => {
  t = await buildScratchTestApp({
    config: {
      opsToken: 'test-ops-token-0123456789abcdefgh',
      optimiser: { url: null, timeoutMs: 1000, timeLimitMs: 400 },
    },
  });
  brand = await createBrandWithKey(t.deps, { pickupAddress: '5 rue Oberkampf 75011 Paris' });
  // Every 11th address of the bench's file: spread over the twenty arrondissements.
  const addresses = parisAddresses().slice(0, ORDERS);
  for (const a of addresses) {
    const res = await createOrder(t.app, brand, { ...VALID_ORDER, delivery_address: a.address });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.data.order.tracking_ref as string;
    refs.push(ref);
    await t.pool.query(
      `UPDATE orders SET status = 'picked_up', promised_date = $2, delivery_lat = $3, delivery_lng = $4,
              delivery_location_precision = 'rooftop', delivery_location_source = 'geocoder',
              quantity = 1 + (id % 2), unit_weight_grams = 1500
        WHERE tracking_ref = $1`,
      [ref, DAY, a.lat, a.lng],
    );
  }
  // The brand's pickup is not on this day: only deliveries.
  couriers.bike = await courier('Bike Courier');
  couriers.van = await courier('Van Courier');
  couriers.short = await courier('Short Courier');
}, 180_000);

afterAll(async () => t?.close());

describe('the fleet', () => {
  it('adds a hub, vehicles and shifts, each audited; bad input is a 400 naming the field, nothing stored', async () => {
    const hub = await ops('POST', '/hubs', {
      name: 'Hub Bastille',
      address: '10 rue de la Roquette 75011 Paris',
      lat: 48.8541,
      lng: 2.3722,
    });
    expect(hub.statusCode, hub.body).toBe(201);
    const outside = await ops('POST', '/hubs', { name: 'Far', address: 'Lyon', lat: 45.76, lng: 4.83 });
    expect(outside.statusCode).toBe(400);
    expect(outside.data.details[0].field).toBe('lat');
    const vehicle = (body: object) => ops('POST', '/vehicles', { hub: 'Hub Bastille', ...body });
    const noCapacity = await vehicle({ name: 'Empty', kind: 'van', capacity_parcels: 0, capacity_kg: 0 });
    expect(noCapacity.statusCode).toBe(400);
    expect(noCapacity.data.details.map((d: any) => d.field).sort()).toEqual([
      'capacity_kg',
      'capacity_parcels',
    ]);
    const badKind = await vehicle({ name: 'Truck', kind: 'truck', capacity_parcels: 10, capacity_kg: 10 });
    expect(badKind.data.details[0].field).toBe('kind');
    for (const [name, kind, parcels, kg] of [
      ['Bike 1', 'cargo_bike', 14, 40],
      ['Van 1', 'electric_van', 30, 45],
      ['Bike 2', 'cargo_bike', 10, 30],
    ] as const) {
      const res = await vehicle({ name, kind, capacity_parcels: parcels, capacity_kg: kg });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect((await ops('GET', '/vehicles')).data.vehicles).toHaveLength(3);
    expect(Number((await t.pool.query('SELECT count(*) FROM vehicles')).rows[0].count)).toBe(3);

    const shift = (courierId: string, vehicleId: string, starts: string, ends: string) =>
      ops('PUT', '/shifts', {
        courier_id: courierId,
        date: DAY,
        starts_at: starts,
        ends_at: ends,
        vehicle_id: vehicleId,
      });
    const backwards = await shift(couriers.bike!, 'Bike 1', '12:00', '08:00');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.data.details[0].field).toBe('ends_at');
    // A break outside the shift, too short a window for its minutes, or of no length: each a 400 naming it.
    const withBreak = (b: object) =>
      ops('PUT', '/shifts', {
        courier_id: couriers.bike,
        date: DAY,
        starts_at: '08:00',
        ends_at: '12:00',
        vehicle_id: 'Bike 1',
        break: b,
      });
    for (const [b, field] of [
      [{ from: '11:30', until: '12:30', minutes: 30 }, 'break.until'],
      [{ from: '07:00', until: '09:00', minutes: 30 }, 'break.from'],
      [{ from: '10:00', until: '10:20', minutes: 30 }, 'break.until'],
      [{ from: '10:00', until: '11:00', minutes: 2 }, 'break.minutes'],
      [{ from: '10h00', until: '11:00', minutes: 30 }, 'break.from'],
    ] as const) {
      const res = await withBreak(b);
      expect(res.statusCode, JSON.stringify(b)).toBe(400);
      expect(res.data.details[0].field).toBe(field);
    }
    expect(Number((await t.pool.query('SELECT count(*) FROM courier_shifts')).rows[0].count)).toBe(0);
    expect((await shift(couriers.bike!, 'Bike 1', '08:00', '12:00')).statusCode).toBe(200);
    // The van's courier takes half an hour between 10:00 and 12:00, set as an operator does.
    const cli = await runDlv(
      [
        'shifts',
        'set',
        couriers.van!,
        '--date',
        DAY,
        '--start',
        '08:00',
        '--end',
        '13:00',
        '--vehicle',
        'Van 1',
        '--break',
        '10:00-12:00/30',
        '--json',
      ],
      { DATABASE_URL: t.databaseUrl },
    );
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).shift.break).toEqual({ from: '10:00', until: '12:00', minutes: 30 });
    const badCli = await runDlv(
      ['shifts', 'set', couriers.van!, '--date', DAY, '--start', '08:00', '--end', '13:00'].concat([
        '--vehicle',
        'Van 1',
        '--break',
        'lunch',
      ]),
      { DATABASE_URL: t.databaseUrl },
    );
    expect(badCli.code).not.toBe(0);
    expect(badCli.stderr).toContain('break');
    // Half an hour on a small bike: the shift, not the bike, limits it.
    expect((await shift(couriers.short!, 'Bike 2', '09:00', '09:30')).statusCode).toBe(200);
    const taken = await shift(couriers.short!, 'Van 1', '09:00', '09:30');
    expect(taken.statusCode).toBe(400);
    expect(taken.data.details[0].field).toBe('vehicle_id');
    const shifts = (await ops('GET', `/shifts?date=${DAY}`)).data.shifts;
    expect(shifts).toHaveLength(3);
    expect(shifts.map((s: { courier_id: string; break: unknown }) => [s.courier_id, s.break]).sort()).toEqual(
      [
        [couriers.bike, null],
        [couriers.short, null],
        [couriers.van, { from: '10:00', until: '12:00', minutes: 30 }],
      ].sort(),
    );
    expect(await auditCount('hub.added')).toBe(1);
    expect(await auditCount('vehicle.added')).toBe(3);
    expect(await auditCount('shift.set')).toBe(3);
  });
});

describe('optimised planning', () => {
  let rounds: any[];

  it('plans the day within capacities and shifts, and lists what it cannot place with the reason', async () => {
    const res = await ops('POST', '/rounds/plan', { date: DAY, optimise: true });
    expect(res.statusCode, res.body).toBe(200);
    const { summary, unplaced, engine } = res.data;
    rounds = res.data.rounds;
    expect(engine).toBe('in-process');
    const vehicles = new Map<string, any>(
      (await ops('GET', '/vehicles')).data.vehicles.map((v: any) => [v.id, v]),
    );
    const shifts = new Map<string, any>(
      (await ops('GET', `/shifts?date=${DAY}`)).data.shifts.map((s: any) => [s.courier_id, s]),
    );
    const placed = rounds.flatMap((r) => r.stops.map((s: any) => s.order.tracking_ref));
    const left = unplaced.map((u: any) => u.tracking_ref);
    // Every parcel once: on a round or unplaced.
    expect([...placed, ...left].sort()).toEqual([...refs].sort());
    expect(left.length).toBeGreaterThan(0);
    for (const u of unplaced) expect(['capacity', 'shift', 'time_window']).toContain(u.reason);
    expect(summary).toMatchObject({ unplaced: left.length, stops: placed.length });
    for (const round of rounds) {
      const vehicle = vehicles.get(round.vehicle_id)!;
      const shift = shifts.get(round.courier_id)!;
      expect(shift.vehicle_id).toBe(round.vehicle_id);
      expect(round.planned_by).toBe('in-process');
      const parcels = round.stops.reduce((n: number, s: any) => n + s.order.quantity, 0);
      expect(parcels).toBeLessThanOrEqual(vehicle.capacity_parcels);
      expect(parcels * 1.5).toBeLessThanOrEqual(vehicle.capacity_kg);
      const legs = round.stops.reduce((n: number, s: any) => n + s.leg_distance_m, 0);
      expect(round.planned_distance_m).toBeGreaterThan(legs);
      for (const stop of round.stops) {
        const at = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Paris',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(stop.planned_arrival));
        expect(
          at >= shift.starts_at && at <= shift.ends_at,
          `${at} in ${shift.starts_at}–${shift.ends_at}`,
        ).toBe(true);
      }
    }
    // The van's courier gets their half hour between 10:00 and 12:00: a gap in the planned times.
    const van = rounds.find((r) => r.courier_id === couriers.van);
    if (van && van.stops.length > 1) {
      const times = van.stops.map((s: any) => new Date(s.planned_arrival).getTime() / 1000);
      const gaps = times.slice(1).map((t: number, i: number) => t - times[i] - 180);
      expect(Math.max(...gaps)).toBeGreaterThanOrEqual(30 * 60);
    }
    expect(await auditCount('round.planned')).toBe(rounds.length);
  }, 60_000);

  it('keeps a pinned stop on its round when the day is planned again; a stale version is a 409, nothing written', async () => {
    const round = rounds.find((r) => r.courier_id === couriers.van)!;
    const last = round.stops.at(-1).order.tracking_ref;
    const pinned = await ops('POST', `/rounds/${round.id}/pins`, {
      stop: { tracking_ref: last },
      pinned: true,
      version: round.version,
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    expect(pinned.data.round.version).toBeGreaterThan(round.version);
    expect(pinned.data.round.stops.find((s: any) => s.order.tracking_ref === last).pinned).toBe(true);

    const snapshot = async () =>
      (await t.pool.query('SELECT round_id, position, order_id, pinned FROM round_stops ORDER BY 1, 2')).rows;
    const before = await snapshot();
    const audits = await auditCount('round.stop_pinned');
    const stale = await ops('POST', `/rounds/${round.id}/pins`, {
      stop: { tracking_ref: last },
      pinned: false,
      version: round.version,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.data.error).toBe('round_conflict');
    expect(stale.data.details[0].field).toBe('version');
    expect(await snapshot()).toEqual(before);
    expect(await auditCount('round.stop_pinned')).toBe(audits);

    const again = await ops('POST', '/rounds/plan', { date: DAY, optimise: true });
    expect(again.statusCode, again.body).toBe(200);
    const vanRound = again.data.rounds.find((r: any) => r.courier_id === couriers.van);
    const stop = vanRound.stops.find((s: any) => s.order.tracking_ref === last);
    expect(stop?.pinned).toBe(true);
  }, 60_000);

  it('moves a stop to another round, both versions checked', async () => {
    const day = (await ops('GET', `/rounds?date=${DAY}`)).data.rounds;
    const from = day.find((r: any) => r.courier_id === couriers.bike);
    const to = day.find((r: any) => r.courier_id === couriers.van);
    const ref = from.stops[0].order.tracking_ref;
    const moved = await ops('POST', `/rounds/${from.id}/moves`, {
      stop: { tracking_ref: ref },
      to_round_id: to.id,
      position: 1,
      version: from.version,
      to_version: to.version,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.data.to.stops[0]).toMatchObject({
      position: 1,
      planned_arrival: null,
      order: { tracking_ref: ref },
    });
    expect(moved.data.from.stops.some((s: any) => s.order.tracking_ref === ref)).toBe(false);
    const staleTo = await ops('POST', `/rounds/${moved.data.to.id}/moves`, {
      stop: { tracking_ref: ref },
      to_round_id: from.id,
      version: moved.data.to.version,
      to_version: from.version,
    });
    expect(staleTo.statusCode).toBe(409);
    expect(staleTo.data.details[0].field).toBe('to_version');
    const staleStops = await ops('PUT', `/rounds/${from.id}/stops`, { stops: [], version: from.version });
    expect(staleStops.statusCode).toBe(409);
    expect(await auditCount('round.stop_moved')).toBe(2);
  }, 60_000);
});

describe('same-day parcels as pickup → delivery pairs', () => {
  // A day of its own: the brands' pickups are on it, with same-day (express) parcels still at the brand.
  // The day before DAY: the earlier tests' parcels, promised on DAY, are not due yet.
  const SAME_DAY = '2026-12-01';
  const addresses = parisAddresses().slice(10, 16);

  /** An order of `b`, moved onto SAME_DAY as the test needs it; its tracking reference. */
  async function dayOrder(
    b: TestBrand,
    a: { address: string; lat: number; lng: number },
    set: { service: string; status: string },
  ) {
    const res = await createOrder(t.app, b, { ...VALID_ORDER, delivery_address: a.address });
    expect(res.statusCode, res.body).toBe(200);
    const ref = res.data.order.tracking_ref as string;
    await t.pool.query(
      `UPDATE orders SET service = $2, status = $3, promised_date = $4, delivery_lat = $5, delivery_lng = $6,
              delivery_location_precision = 'rooftop', delivery_location_source = 'geocoder',
              quantity = 1, unit_weight_grams = 2000
        WHERE tracking_ref = $1`,
      [ref, set.service, set.status, SAME_DAY, a.lat, a.lng],
    );
    return ref;
  }
  /** The brand's pickup moved onto SAME_DAY with this window; its id. */
  async function pickupOn(ref: string, window: [string, string]) {
    const { rows } = await t.pool.query(
      `UPDATE pickups p SET pickup_date = $2, window_start = $3, window_end = $4
         FROM orders o WHERE o.tracking_ref = $1 AND p.id = o.pickup_id RETURNING p.id`,
      [ref, SAME_DAY, ...window],
    );
    return rows[0].id as string;
  }

  it('collects an express parcel at the brand and delivers it on the same round, the pickup first; late pairs are listed with their reason', async () => {
    for (const [who, vehicle, ends] of [
      [couriers.bike!, 'Bike 1', '12:00'],
      [couriers.van!, 'Van 1', '13:00'],
    ] as const) {
      const res = await ops('PUT', '/shifts', {
        courier_id: who,
        date: SAME_DAY,
        starts_at: '08:00',
        ends_at: ends,
        vehicle_id: vehicle,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // At the brand: two same-day parcels and one for the hub (standard), collected 09:00–10:30.
    const express1 = await dayOrder(brand, addresses[0]!, { service: 'express', status: 'pending' });
    const express2 = await dayOrder(brand, addresses[1]!, { service: 'express', status: 'pending' });
    const toHub = await dayOrder(brand, addresses[2]!, { service: 'standard', status: 'pending' });
    const pickupId = await pickupOn(express1, ['09:00', '10:30']);
    // Already at the hub: a plain delivery, express or not.
    const atHub = await dayOrder(brand, addresses[3]!, { service: 'express', status: 'picked_up' });
    // Another brand whose pickup opens after every shift: its same-day parcel cannot be placed.
    const late = await createBrandWithKey(t.deps, { pickupAddress: '20 rue de Rivoli 75004 Paris' });
    const lateRef = await dayOrder(late, addresses[4]!, { service: 'express', status: 'pending' });
    const latePickup = await pickupOn(lateRef, ['16:00', '18:00']);

    const res = await ops('POST', '/rounds/plan', { date: SAME_DAY, optimise: true });
    expect(res.statusCode, res.body).toBe(200);
    const { rounds, unplaced } = res.data;
    const key = (s: any) => (s.kind === 'pickup' ? s.pickup.id : s.order.tracking_ref);
    const holding = rounds.filter((r: any) => r.stops.some((s: any) => key(s) === pickupId));
    // One stop for the pickup (its hub-bound parcel and its pairs collected at once), on one round.
    expect(holding).toHaveLength(1);
    const stops = holding[0].stops.map(key);
    expect(stops.filter((k: string) => k === pickupId)).toHaveLength(1);
    for (const ref of [express1, express2]) {
      // Same vehicle: on the pickup's round, after the pickup, and on no other round.
      expect(stops.indexOf(ref), ref).toBeGreaterThan(stops.indexOf(pickupId));
      expect(rounds.filter((r: any) => r.stops.some((s: any) => key(s) === ref))).toHaveLength(1);
      const at = (k: string) =>
        new Date(holding[0].stops.find((s: any) => key(s) === k).planned_arrival).getTime();
      expect(at(ref)).toBeGreaterThan(at(pickupId));
    }
    // The hub-bound parcel is not delivered today; the parcel at the hub is a plain delivery.
    const placed = rounds.flatMap((r: any) => r.stops.map(key));
    expect(placed).not.toContain(toHub);
    expect(placed).toContain(atHub);
    // The late brand's pickup and its pair: listed with the optimiser's reason, not on a round.
    expect(placed).not.toContain(lateRef);
    expect(placed).not.toContain(latePickup);
    const pair = unplaced.find((u: any) => u.tracking_ref === lateRef);
    expect(pair?.kind).toBe('delivery');
    expect(['time_window', 'shift']).toContain(pair?.reason);
    expect(unplaced.find((u: any) => u.pickup_id === latePickup)?.reason).toBeDefined();
  }, 60_000);
});
