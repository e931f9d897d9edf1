/**
 * The day's rounds as a routing problem, and the optimiser's answer as rounds (issue 37,
 * docs/planning.md). Pure: the service gathers the stops, the shifts and the travel times, this
 * module shapes them for the `RoundOptimiser` port and reads its answer back.
 *
 * The problem's clock is seconds since midnight, Paris time, on the planned day. Each stop is a
 * VROOM-style job: a delivery's parcels and grams are on board from the hub (`delivery`), a
 * pickup's from the brand back to the hub (`pickup`, within the pickup's window). Each courier's
 * shift is a vehicle starting and ending at its hub, carrying its capacity `[parcels, grams]`,
 * with the courier's break (VROOM's `breaks`); the stops the operator pinned to the courier's round
 * are its `fixedSteps`, in their order.
 *
 * A same-day parcel still at the brand (SPEC §11: an `express` order due that day, collected by one
 * of the day's pickups) is a VROOM-style shipment instead: picked up at the brand within the
 * pickup's window and delivered to the recipient by the same vehicle, the pickup first. Its pickup
 * end is the round's stop of that pickup, so all the tasks of one pickup (its job, the hub-bound
 * parcels, and its pairs) must ride one vehicle: `tieSplitPickups` pins them when an answer splits
 * them, for a second solve.
 */
import { type Hub, PROFILE_OF_KIND, type Vehicle } from '../fleet/fleet.ts';
import type { GeoPoint } from '../places/location.ts';
import type { TravelMatrix } from '../places/ports.ts';
import type { VehicleProfile } from '../places/vehicles.ts';
import type {
  RoutingJob,
  RoutingProblem,
  RoutingShipment,
  RoutingSolution,
  RoutingVehicle,
  UnassignedReason,
} from '../routing/ports.ts';
import { type StopRef, stopKey } from './round.ts';

/** Time at the door: a delivery (ring, hand over, scan, proof), a pickup (count, scan, load). */
const SERVICE_SECONDS = { delivery: 180, pickup: 600 } as const;

export interface PlanningStop {
  stop: StopRef;
  /** The tracking reference, or the pickup's id: how the operator names it. */
  label: string;
  point: GeoPoint;
  parcels: number;
  grams: number;
  /** When service may start, seconds since midnight (a pickup's window); none: any time in the shift. */
  window?: readonly [number, number];
}

/**
 * A same-day parcel: collected at its pickup (the pickup's stop, point and window; its parcels and
 * grams are this order's) and delivered to the recipient (the order's stop) on the same round.
 */
export interface PlanningPair {
  pickup: PlanningStop;
  delivery: PlanningStop;
}

export interface PlanningVehicle {
  courierId: string;
  vehicle: Vehicle;
  hub: Hub;
  /** The shift, seconds since midnight. */
  shift: readonly [number, number];
  /** The stops pinned to this courier's round, in their order. */
  pinned: readonly StopRef[];
  /**
   * The courier's break: `seconds` long, starting within `window` (seconds since midnight; its end
   * is the break's latest end less its length), taken where the courier is.
   */
  break?: { window: readonly [number, number]; seconds: number };
}

/** Why a stop is not on any round: the optimiser's reason, or that it has no place at all. */
export type UnplacedReason = UnassignedReason | 'no_location';

export interface OptimisedRound {
  courierId: string;
  vehicleId: string;
  /** In order, each with its planned arrival (seconds since midnight) and its leg from the previous stop. */
  stops: { stop: StopRef; arrival: number; legDistanceM: number; pinned: boolean }[];
  distanceM: number;
  durationS: number;
}

export interface ProblemMeta {
  problem: RoutingProblem;
  /** Jobs by id (the stop's key). */
  stopsByKey: Map<string, PlanningStop>;
  /** Shipments by id (the delivery stop's key). */
  pairsByKey: Map<string, PlanningPair>;
}

/**
 * The pickup's 600 s are counted on its job (or, when all its parcels are same-day, on its first
 * pair); each further pair adds the time to scan and load one more parcel at the same door.
 */
const PAIRED_LOAD_SECONDS = 60;

const pointKey = (p: GeoPoint) => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;

/**
 * The routing problem of the day. `matrix` gives the travel times between the problem's points for
 * a profile (the TravelTimes port: OSRM's table, else the estimate).
 */
export async function buildProblem(
  stops: readonly PlanningStop[],
  vehicles: readonly PlanningVehicle[],
  matrix: (points: readonly GeoPoint[], profile: VehicleProfile) => Promise<TravelMatrix>,
  pairs: readonly PlanningPair[] = [],
): Promise<ProblemMeta> {
  const points: GeoPoint[] = [];
  const indexOf = new Map<string, number>();
  const locate = (p: GeoPoint) => {
    const key = pointKey(p);
    let i = indexOf.get(key);
    if (i === undefined) {
      i = points.length;
      points.push({ lat: p.lat, lng: p.lng });
      indexOf.set(key, i);
    }
    return i;
  };
  for (const v of vehicles) locate(v.hub);
  const stopsByKey = new Map(stops.map((s) => [stopKey(s.stop), s]));
  const jobs: RoutingJob[] = stops.map((s) => {
    const amount = [s.parcels, s.grams];
    return {
      id: stopKey(s.stop),
      location: locate(s.point),
      service: SERVICE_SECONDS[s.stop.kind],
      ...(s.stop.kind === 'delivery' ? { delivery: amount } : { pickup: amount }),
      ...(s.window && { timeWindows: [s.window] }),
    };
  });
  const pairsByKey = new Map(pairs.map((p) => [stopKey(p.delivery.stop), p]));
  // The courier is at the pickup's door already when its job (or an earlier pair) brought them there.
  const visited = new Set(stops.filter((s) => s.stop.kind === 'pickup').map((s) => stopKey(s.stop)));
  // A pin on either end of a pair keeps the whole pair on the pinning courier's round (a pickup
  // pinned takes its pairs along), the solver choosing the positions.
  const pinnedTo = new Map<string, string>();
  for (const v of vehicles) for (const s of v.pinned) pinnedTo.set(stopKey(s), v.courierId);
  const shipments: RoutingShipment[] = pairs.map((p) => {
    const pickupKey = stopKey(p.pickup.stop);
    const first = !visited.has(pickupKey);
    visited.add(pickupKey);
    const vehicle = pinnedTo.get(stopKey(p.delivery.stop)) ?? pinnedTo.get(pickupKey);
    return {
      id: stopKey(p.delivery.stop),
      amount: [p.delivery.parcels, p.delivery.grams],
      pickup: {
        location: locate(p.pickup.point),
        service: first ? SERVICE_SECONDS.pickup : PAIRED_LOAD_SECONDS,
        ...(p.pickup.window && { timeWindows: [p.pickup.window] }),
      },
      delivery: {
        location: locate(p.delivery.point),
        service: SERVICE_SECONDS.delivery,
        ...(p.delivery.window && { timeWindows: [p.delivery.window] }),
      },
      ...(vehicle !== undefined && { vehicle }),
    };
  });
  const profiles = [...new Set(vehicles.map((v) => PROFILE_OF_KIND[v.vehicle.kind]))];
  const matrices: RoutingProblem['matrices'] = Object.fromEntries(
    await Promise.all(
      profiles.map(async (profile) => {
        const m = await matrix(points, profile);
        return [profile, { durations: m.durations, distances: m.distances }] as const;
      }),
    ),
  );
  const routingVehicles: RoutingVehicle[] = vehicles.map((v) => {
    const hub = locate(v.hub);
    const fixed = v.pinned.filter((s) => stopsByKey.has(stopKey(s)));
    return {
      id: v.courierId,
      profile: PROFILE_OF_KIND[v.vehicle.kind],
      start: hub,
      end: hub,
      capacity: [v.vehicle.capacityParcels, Math.round(v.vehicle.capacityKg * 1000)],
      timeWindow: v.shift,
      ...(v.break && { breaks: [{ id: 'break', service: v.break.seconds, timeWindows: [v.break.window] }] }),
      ...(fixed.length > 0 && { fixedSteps: fixed.map((s) => ({ type: 'job' as const, id: stopKey(s) })) }),
    };
  });
  return {
    problem: { matrices, jobs, ...(shipments.length > 0 && { shipments }), vehicles: routingVehicles },
    stopsByKey,
    pairsByKey,
  };
}

/**
 * The pickups whose tasks (its job and its pairs' pickup ends) the answer put on more than one
 * vehicle, tied to one: the vehicle of its job, else of its first pair. A pickup is one stop on one
 * round (the courier collects every parcel at once), so a split answer is solved again with these
 * pins. Null when nothing is split.
 */
export function tieSplitPickups(meta: ProblemMeta, solution: RoutingSolution): RoutingProblem | null {
  const vehiclesOf = new Map<string, string[]>();
  for (const route of solution.routes)
    for (const step of route.steps) {
      if (step.id === undefined) continue;
      const key =
        step.type === 'job' && meta.stopsByKey.get(step.id)?.stop.kind === 'pickup'
          ? step.id
          : step.type === 'pickup'
            ? meta.pairsByKey.get(step.id) && stopKey(meta.pairsByKey.get(step.id)!.pickup.stop)
            : undefined;
      if (!key) continue;
      const list = vehiclesOf.get(key) ?? [];
      // The job's vehicle first: it decides.
      if (step.type === 'job') list.unshift(route.vehicle);
      else list.push(route.vehicle);
      vehiclesOf.set(key, list);
    }
  const tie = new Map<string, string>();
  for (const [key, list] of vehiclesOf) if (new Set(list).size > 1) tie.set(key, list[0]!);
  if (tie.size === 0) return null;
  const { problem } = meta;
  return {
    ...problem,
    jobs: (problem.jobs ?? []).map((j) => (tie.has(j.id) ? { ...j, vehicle: tie.get(j.id)! } : j)),
    shipments: (problem.shipments ?? []).map((s) => {
      const to = tie.get(stopKey(meta.pairsByKey.get(s.id)!.pickup.stop));
      return to !== undefined && s.vehicle === undefined ? { ...s, vehicle: to } : s;
    }),
  };
}

/** The optimiser's routes as rounds, and the stops it left out with its reasons. */
export function readSolution(
  meta: ProblemMeta,
  vehicles: readonly PlanningVehicle[],
  solution: RoutingSolution,
): { rounds: OptimisedRound[]; unplaced: { stop: PlanningStop; reason: UnplacedReason }[] } {
  const onRounds = new Set<string>();
  const byCourier = new Map(vehicles.map((v) => [v.courierId, v]));
  const rounds: OptimisedRound[] = [];
  for (const route of solution.routes) {
    const v = byCourier.get(route.vehicle);
    if (!v) continue;
    const pinned = new Set(v.pinned.map(stopKey));
    const stops: OptimisedRound['stops'] = [];
    let distanceSoFar = 0;
    for (const step of route.steps) {
      if (step.type === 'start') distanceSoFar = step.distance;
      if (step.id === undefined) continue;
      // A job is its stop; a pair's ends are its pickup's stop and its order's.
      const pair = meta.pairsByKey.get(step.id);
      const planned =
        step.type === 'job'
          ? meta.stopsByKey.get(step.id)
          : step.type === 'pickup'
            ? pair?.pickup
            : step.type === 'delivery'
              ? pair?.delivery
              : undefined;
      if (!planned) continue;
      const key = stopKey(planned.stop);
      // One stop per pickup: the parcels of its later tasks are collected at its first visit.
      if (onRounds.has(key)) {
        distanceSoFar = step.distance;
        continue;
      }
      onRounds.add(key);
      stops.push({
        stop: planned.stop,
        arrival: step.arrival + step.waitingTime,
        legDistanceM: Math.max(0, Math.round(step.distance - distanceSoFar)),
        pinned: pinned.has(key),
      });
      distanceSoFar = step.distance;
    }
    if (stops.length === 0) continue;
    rounds.push({
      courierId: v.courierId,
      vehicleId: v.vehicle.id,
      stops,
      distanceM: Math.round(route.distance),
      durationS: Math.round(route.duration),
    });
  }
  const unplaced = solution.unassigned.flatMap((u) => {
    // An unplaced pair is its order's; a pickup whose pairs took it onto a round is not unplaced.
    const stop = u.type === 'shipment' ? meta.pairsByKey.get(u.id)?.delivery : meta.stopsByKey.get(u.id);
    return stop && !onRounds.has(stopKey(stop.stop)) ? [{ stop, reason: u.reason as UnplacedReason }] : [];
  });
  return { rounds, unplaced };
}

/** Seconds since midnight, Paris time, on `date`, as an instant (summer and winter time alike). */
export function parisInstant(date: string, seconds: number): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d) + seconds * 1000;
  // Paris is UTC+1 or UTC+2: try both, keep the one whose Paris wall clock reads `wall`.
  for (const offsetHours of [1, 2]) {
    const instant = new Date(wall - offsetHours * 3_600_000);
    if (parisWallMs(instant) === wall) return instant;
  }
  return new Date(wall - 3_600_000);
}

const PARIS_WALL = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function parisWallMs(instant: Date): number {
  const p: Record<string, number> = {};
  for (const part of PARIS_WALL.formatToParts(instant))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return (
    Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) + instant.getUTCMilliseconds()
  );
}
