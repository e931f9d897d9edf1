/**
 * The day of issue 37's "Done when": about 150 orders to real addresses of Paris and the petite
 * couronne (test/fixtures/addresses, the points of ../shared/bench-data/addresses and five
 * monuments of the 92, 93 and 94), geocoded through the geocoder the deps are given (the fake BAN in
 * tests and in the bench), collected from three brands in their pickup windows, for five couriers
 * — three cargo bikes and two vans, one on a morning shift, the others with a lunch break — from one hub. The same day is planned by
 * sort code (a round per sort code, each from the hub and back, given round-robin to the couriers:
 * what the service did before) and by the optimiser, through the service as an operator does.
 *
 * Both are measured on the same travel times (the service's TravelTimes, by the vehicle's profile),
 * and the optimised rounds are judged here, not by the solver's own numbers: every stop placed once,
 * each round within its vehicle's parcels and kilograms, its pickups inside their windows, the
 * courier out of the hub no earlier than the shift's start and back by its end, with room for the
 * courier's break.
 */
import { readFileSync } from 'node:fs';
import type { Pool } from '../src/db/pool.ts';
import type { Deps } from '../src/deps.ts';
import type { Author } from '../src/domain/audit/actor.ts';
import { extractPostcode } from '../src/domain/coverage/extract-postcode.ts';
import { minutesOf, PROFILE_OF_KIND } from '../src/domain/fleet/fleet.ts';
import type { GeoPoint } from '../src/domain/places/location.ts';
import { postcodePoint } from '../src/domain/places/region.ts';
import { parisInstant } from '../src/domain/rounds/optimised-plan.ts';

const FIXTURES = new URL('../test/fixtures/addresses/', import.meta.url);
/** Time at the door, as the planning counts it (src/domain/rounds/optimised-plan.ts). */
const SERVICE_SECONDS = { delivery: 180, pickup: 600 } as const;
const HUB = { name: 'Hub Bercy', address: '48 quai de la Rapée 75012 Paris', lat: 48.8443, lng: 2.3683 };
const FLEET = [
  { name: 'Bike 1', kind: 'cargo_bike', parcels: 40, kg: 150, shift: ['08:00', '17:00'], lunch: true },
  { name: 'Bike 2', kind: 'cargo_bike', parcels: 40, kg: 150, shift: ['08:00', '17:00'], lunch: true },
  { name: 'Bike 3', kind: 'cargo_bike', parcels: 40, kg: 150, shift: ['08:00', '13:00'], lunch: false },
  { name: 'Van 1', kind: 'van', parcels: 120, kg: 700, shift: ['08:00', '17:00'], lunch: true },
  { name: 'Van 2', kind: 'electric_van', parcels: 120, kg: 700, shift: ['09:00', '18:00'], lunch: true },
] as const;
/** The full-day couriers' lunch: 45 minutes between noon and two. */
const LUNCH = { from: '12:00', until: '14:00', minutes: 45 };
/** The brands whose parcels are collected that day, and when they open their door to the courier. */
const SHOPS = [
  { name: 'Atelier Oberkampf', address: '5 rue Oberkampf 75011 Paris', window: ['10:00', '12:00'] },
  { name: 'Librairie Monge', address: '12 rue Monge 75005 Paris', window: ['14:00', '16:00'] },
  { name: 'Fleurs de Vincennes', address: '10 avenue de Paris 94300 Vincennes', window: ['09:00', '11:00'] },
] as const;

interface FixtureAddress {
  address: string;
  postcode: string;
}

function readAddresses(file: string): FixtureAddress[] {
  return readFileSync(new URL(file, FIXTURES), 'utf8')
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .flatMap((line) => {
      const m = /^"?(.*?)"?,(\d{5}),-?[\d.]+,-?[\d.]+$/.exec(line.trim());
      // The source's row without a street ("75003 Paris") is no address to deliver to.
      return m && /^\d|^[A-Za-z]/.test(m[1]!) && !/^\d{5}\b/.test(m[1]!)
        ? [{ address: m[1]!, postcode: m[2]! }]
        : [];
    });
}

/** `count` addresses: the petite couronne's five, and Paris's spread evenly over its file. */
function dayAddresses(count: number): FixtureAddress[] {
  const suburbs = readAddresses('petite-couronne.csv');
  const paris = readAddresses('paris.csv');
  const wanted = count - suburbs.length;
  const picked = Array.from({ length: wanted }, (_, i) => paris[Math.floor((i * paris.length) / wanted)]!);
  return [...picked, ...suburbs];
}

export interface ParisDayResult {
  orders: number;
  /** Orders whose point came from the geocoder (not a postcode's centre). */
  geocoded: number;
  pickups: number;
  couriers: number;
  sortCode: { rounds: number; distanceM: number };
  optimised: { rounds: number; distanceM: number; engine: string; unplaced: number; millis: number };
  /** 1 − optimised ÷ sort code. */
  saving: number;
  /** What the independent check found wrong with the optimised rounds (none expected). */
  violations: string[];
}

/**
 * Sets the day up through `deps` (whose geocoder places the addresses) and plans it both ways.
 * `date`: a business day after today (the pickups are asked for it).
 */
export async function parisDayRounds(
  deps: Deps,
  pool: Pool,
  options: { date: string; orders?: number; by: Author },
): Promise<ParisDayResult> {
  const { date, by } = options;
  const count = options.orders ?? 150;

  await deps.fleet.addHub(HUB, by);
  const couriers: string[] = [];
  for (const [i, v] of FLEET.entries()) {
    await deps.fleet.addVehicle(
      { name: v.name, kind: v.kind, capacityParcels: v.parcels, capacityKg: v.kg, hub: HUB.name },
      by,
    );
    const { courier } = await deps.couriers.add(
      {
        email: `paris-day-${i + 1}-${Date.now()}@example.com`,
        name: `Courier ${v.name}`,
        password: 'a long courier password 1',
      },
      by,
    );
    await deps.fleet.setShift(
      {
        courier: courier.id,
        date,
        startsAt: v.shift[0],
        endsAt: v.shift[1],
        vehicle: v.name,
        break: v.lunch ? LUNCH : null,
      },
      by,
    );
    couriers.push(courier.id);
  }

  // The shops: each with two parcels waiting for tomorrow, collected in its window today.
  const shops = [];
  for (const s of SHOPS) {
    const brand = await deps.brands.create({ name: s.name, pickupAddress: s.address }, by);
    const context = { id: brand.id, defaultPickupAddress: s.address };
    for (let k = 0; k < 2; k++)
      await deps.orders.create(context, {
        customer_email: `client-${k}@example.com`,
        delivery_address: '12 rue Oberkampf 75011 Paris',
      });
    await deps.pickups.request(context, { date, window: { start: s.window[0], end: s.window[1] } });
    shops.push(brand);
  }

  // The deliveries: parcels of one to three items, 0.5 to 4.5 kg each, all at the hub that morning,
  // from a brand not collected that day.
  const senderAddress = '20 rue du Faubourg Saint-Antoine 75012 Paris';
  const sender = await deps.brands.create({ name: 'Maison Paris', pickupAddress: senderAddress }, by);
  const senderContext = { id: sender.id, defaultPickupAddress: senderAddress };
  const refs: string[] = [];
  for (const [i, a] of dayAddresses(count).entries()) {
    const order = await deps.orders.create(senderContext, {
      customer_email: `recipient-${i}@example.com`,
      delivery_address: a.address,
      quantity: 1 + (i % 3),
      unit_weight: `${500 + ((i * 737) % 4000)}g`,
    });
    refs.push(order.trackingRef);
  }
  for (const ref of refs) await deps.orders.setStatus(ref, 'picked_up', null, by);
  // Promised for the day planned (the rates would have promised it from the order's own day).
  await pool.query('UPDATE orders SET promised_date = $1 WHERE tracking_ref = ANY($2)', [date, refs]);

  const points = new Map<string, GeoPoint>();
  let geocoded = 0;
  for (const row of (
    await pool.query<{ tracking_ref: string; delivery_lat: number; delivery_lng: number; source: string }>(
      `SELECT tracking_ref, delivery_lat, delivery_lng, delivery_location_source AS source
         FROM orders WHERE tracking_ref = ANY($1)`,
      [refs],
    )
  ).rows) {
    points.set(row.tracking_ref, { lat: row.delivery_lat, lng: row.delivery_lng });
    if (row.source === 'geocoder') geocoded++;
  }

  const vehicles = new Map((await deps.fleet.listVehicles()).map((v) => [v.id, v]));
  const vehicleOf = new Map(
    (await deps.fleet.listShifts(date)).map((s) => [s.courier_id, vehicles.get(s.vehicle_id)!]),
  );
  const hub: GeoPoint = { lat: HUB.lat, lng: HUB.lng };

  /** Metres from the hub through the points in order and back, by the courier's vehicle. */
  async function driven(courierId: string | null, stops: readonly GeoPoint[]): Promise<number> {
    if (stops.length === 0) return 0;
    const kind = (courierId && vehicleOf.get(courierId)?.kind) || 'van';
    const path = [hub, ...stops, hub];
    const m = await deps.travelTimes.matrix(path, PROFILE_OF_KIND[kind]);
    let metres = 0;
    for (let i = 1; i < path.length; i++) metres += m.distances[i - 1]![i]!;
    return metres;
  }
  // A pickup is where the planning puts it: its postcode's point (src/domain/rounds/round-service.ts).
  const pickupPoint = (address: string) => {
    const postcode = extractPostcode(address);
    return (postcode && postcodePoint(postcode)) || hub;
  };

  // By sort code, as before: every round from the hub and back.
  const bySortCode = await deps.rounds.plan({ date, assign: true }, by);
  let sortCodeM = 0;
  for (const r of bySortCode) {
    const stops = r.stops.map((s) =>
      s.kind === 'delivery' ? points.get(s.order.tracking_ref)! : pickupPoint(s.pickup.pickup_address),
    );
    sortCodeM += await driven(r.courier_id, stops);
  }

  const started = performance.now();
  const day = await deps.rounds.planOptimised({ date }, by);
  const millis = Math.round(performance.now() - started);

  // The judge: recomputed from the orders, the vehicles, the shifts and the travel times.
  const violations: string[] = [];
  const shiftOf = new Map((await deps.fleet.listShifts(date)).map((s) => [s.courier_id, s]));
  const seen = new Map<string, number>();
  const load = await pool.query<{ tracking_ref: string; quantity: number; unit_weight_grams: number }>(
    'SELECT tracking_ref, quantity, unit_weight_grams FROM orders WHERE tracking_ref = ANY($1)',
    [refs],
  );
  const amountOf = new Map(load.rows.map((r) => [r.tracking_ref, r]));
  let optimisedM = 0;
  for (const r of day.rounds) {
    const vehicle = r.vehicle_id ? vehicles.get(r.vehicle_id) : undefined;
    const shift = r.courier_id ? shiftOf.get(r.courier_id) : undefined;
    if (!vehicle || !shift) {
      violations.push(`${r.name}: no vehicle or no shift`);
      continue;
    }
    let parcels = 0;
    let grams = 0;
    const path: GeoPoint[] = [hub];
    const arrivals: { at: number; service: number; label: string; window?: [number, number] }[] = [];
    for (const s of r.stops) {
      const key = s.kind === 'delivery' ? s.order.tracking_ref : s.pickup.id;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (s.kind === 'delivery') {
        const a = amountOf.get(key)!;
        parcels += a.quantity;
        grams += a.quantity * a.unit_weight_grams;
        path.push(points.get(key)!);
      } else {
        path.push(pickupPoint(s.pickup.pickup_address));
      }
      const at = s.planned_arrival ? secondsOfDay(date, s.planned_arrival) : Number.NaN;
      const window =
        s.kind === 'pickup'
          ? ([minutesOf(s.pickup.window.start)! * 60, minutesOf(s.pickup.window.end)! * 60] as [
              number,
              number,
            ])
          : undefined;
      arrivals.push({ at, service: SERVICE_SECONDS[s.kind], label: key, ...(window && { window }) });
    }
    path.push(hub);
    if (parcels > vehicle.capacity_parcels)
      violations.push(`${r.name}: ${parcels} parcels on a vehicle of ${vehicle.capacity_parcels}`);
    if (grams > vehicle.capacity_kg * 1000)
      violations.push(`${r.name}: ${grams / 1000} kg on a vehicle of ${vehicle.capacity_kg} kg`);
    const m = await deps.travelTimes.matrix(path, PROFILE_OF_KIND[vehicle.kind]);
    const start = minutesOf(shift.starts_at)! * 60;
    const end = minutesOf(shift.ends_at)! * 60;
    // The break: its earliest start, its latest start, its length (none: already taken).
    const pause = shift.break && {
      from: minutesOf(shift.break.from)! * 60,
      latest: (minutesOf(shift.break.until)! - shift.break.minutes) * 60,
      length: shift.break.minutes * 60,
    };
    let rested = !pause;
    // Walk the round on the travel times: never before the planned time, waiting for a window; the
    // break fits on a leg when, taken on leaving, it still lets the courier arrive as planned.
    let t = start;
    for (let i = 1; i < path.length; i++) {
      optimisedM += m.distances[i - 1]![i]!;
      const travel = m.durations[i - 1]![i]!;
      const stop = arrivals[i - 1];
      const due = stop ? stop.at : end;
      if (!rested && pause) {
        const begins = Math.max(t, pause.from);
        if (begins <= pause.latest && begins + pause.length + travel <= due + 1) {
          rested = true;
          if (!stop) t = begins + pause.length;
        }
      }
      t += travel;
      if (!stop) continue;
      if (Number.isNaN(stop.at)) violations.push(`${r.name}: ${stop.label} has no planned arrival`);
      if (stop.window) {
        t = Math.max(t, stop.window[0]);
        if (t > stop.window[1]) violations.push(`${r.name}: ${stop.label} reached after its window`);
        if (stop.at < stop.window[0] - 1 || stop.at > stop.window[1] + 1)
          violations.push(`${r.name}: ${stop.label} planned outside its window`);
      }
      t = Math.max(t, stop.at) + stop.service;
    }
    if (t > end + 1)
      violations.push(`${r.name}: back at the hub at ${clock(t)}, after the shift's end ${shift.ends_at}`);
    if (!rested) violations.push(`${r.name}: no room for the courier's break`);
  }
  for (const ref of refs)
    if ((seen.get(ref) ?? 0) !== 1 && !day.unplaced.some((u) => u.tracking_ref === ref))
      violations.push(`${ref} is on ${seen.get(ref) ?? 0} rounds`);
  for (const [key, n] of seen) if (n > 1) violations.push(`${key} is on ${n} rounds`);

  return {
    orders: refs.length,
    geocoded,
    pickups: SHOPS.length,
    couriers: couriers.length,
    sortCode: { rounds: bySortCode.length, distanceM: Math.round(sortCodeM) },
    optimised: {
      rounds: day.rounds.length,
      distanceM: Math.round(optimisedM),
      engine: day.engine,
      unplaced: day.unplaced.length,
      millis,
    },
    saving: sortCodeM > 0 ? 1 - optimisedM / sortCodeM : 0,
    violations,
  };
}

function secondsOfDay(date: string, iso: string): number {
  return (new Date(iso).getTime() - parisInstant(date, 0).getTime()) / 1000;
}

const clock = (s: number) =>
  `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}`;

/** The bench's lines. */
export function formatParisDay(r: ParisDayResult): string[] {
  const km = (m: number) => `${(m / 1000).toFixed(1)} km`;
  return [
    `Paris day: ${r.orders} orders (${r.geocoded} placed by the geocoder), ${r.pickups} pickups, ${r.couriers} couriers (3 cargo bikes, 2 vans)`,
    `- by sort code: ${r.sortCode.rounds} rounds, ${km(r.sortCode.distanceM)}`,
    `- optimised (${r.optimised.engine}, ${(r.optimised.millis / 1000).toFixed(1)} s): ${r.optimised.rounds} rounds, ${km(r.optimised.distanceM)}, ${r.optimised.unplaced} unplaced`,
    `- optimised rounds drive ${(r.saving * 100).toFixed(1)} % less (goal ≥ 25 %); constraints: ${r.violations.length === 0 ? 'all hold (capacity, windows, shifts, breaks)' : r.violations.join('; ')}`,
  ];
}
