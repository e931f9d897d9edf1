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
 */
import { type Hub, PROFILE_OF_KIND, type Vehicle } from '../fleet/fleet.ts';
import type { GeoPoint } from '../places/location.ts';
import type { TravelMatrix } from '../places/ports.ts';
import type { VehicleProfile } from '../places/vehicles.ts';
import type {
  RoutingJob,
  RoutingProblem,
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
  stopsByKey: Map<string, PlanningStop>;
}

const pointKey = (p: GeoPoint) => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;

/**
 * The routing problem of the day. `matrix` gives the travel times between the problem's points for
 * a profile (the TravelTimes port: OSRM's table, else the estimate).
 */
export async function buildProblem(
  stops: readonly PlanningStop[],
  vehicles: readonly PlanningVehicle[],
  matrix: (points: readonly GeoPoint[], profile: VehicleProfile) => Promise<TravelMatrix>,
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
  return { problem: { matrices, jobs, vehicles: routingVehicles }, stopsByKey };
}

/** The optimiser's routes as rounds, and the stops it left out with its reasons. */
export function readSolution(
  meta: ProblemMeta,
  vehicles: readonly PlanningVehicle[],
  solution: RoutingSolution,
): { rounds: OptimisedRound[]; unplaced: { stop: PlanningStop; reason: UnplacedReason }[] } {
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
      if (step.type !== 'job' || step.id === undefined) continue;
      const planned = meta.stopsByKey.get(step.id);
      if (!planned) continue;
      stops.push({
        stop: planned.stop,
        arrival: step.arrival + step.waitingTime,
        legDistanceM: Math.max(0, Math.round(step.distance - distanceSoFar)),
        pinned: pinned.has(step.id),
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
    const stop = meta.stopsByKey.get(u.id);
    return stop ? [{ stop, reason: u.reason as UnplacedReason }] : [];
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
