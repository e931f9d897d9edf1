/**
 * The answer, in the port's shape: each used vehicle's steps with their times, distances and loads,
 * and every task left out with its reason. A route leaves its start as late as it can without
 * arriving anywhere later than the earliest schedule would (the waiting it would have done at its
 * first stops is spent at the depot instead), so its end and its service times are unchanged.
 */
import { BREAK, DELIVERY, END, firstStart, JOB, type Model, PICKUP, START } from './model.ts';
import type { PlannedRoute, RouteStep, RoutingSolution, StepType, UnassignedTask } from './ports.ts';
import { unassignedReason } from './reasons.ts';
import type { Routes } from './routes.ts';

const STEP_TYPES: Record<number, StepType> = {
  [JOB]: 'job',
  [PICKUP]: 'pickup',
  [DELIVERY]: 'delivery',
  [BREAK]: 'break',
  [START]: 'start',
  [END]: 'end',
};

/** Arrival and service start of each position, leaving the start at `leave`. */
function schedule(R: Routes, r: number, leave: number, arrival: Float64Array, start: Float64Array): void {
  const m = R.m;
  const s = R.seq[r]!;
  const eloc = R.eloc[r]!;
  const dur = m.vDurations[r]!;
  arrival[0] = leave;
  start[0] = leave;
  for (let p = 1; p < R.len[r]!; p++) {
    const node = s[p]!;
    const travel = R.isBreak[node] ? 0 : dur[eloc[p - 1]! * m.stride + m.loc[node]!]!;
    arrival[p] = start[p - 1]! + m.service[s[p - 1]!]! + travel;
    start[p] = firstStart(m, node, arrival[p]!);
  }
}

/** Close of the window service starts in at `time`. */
function windowClose(m: Model, node: number, time: number): number {
  for (let w = m.twFirst[node]!; w < m.twEnd[node]!; w++) if (time <= m.twClose[w]!) return m.twClose[w]!;
  return time;
}

function routeAnswer(R: Routes, r: number): PlannedRoute {
  const m = R.m;
  const n = R.len[r]!;
  const s = R.seq[r]!;
  const arrival = new Float64Array(n);
  const start = new Float64Array(n);
  const earliest = R.dep[r]![0]!;
  schedule(R, r, earliest, arrival, start);
  // How much later the start can be without moving anything past its window or the end later.
  let waited = 0;
  let delay = Number.POSITIVE_INFINITY;
  for (let p = 0; p < n; p++) {
    waited += start[p]! - arrival[p]!;
    const slack = waited + windowClose(m, s[p]!, start[p]!) - start[p]!;
    if (slack < delay) delay = slack;
    if (p === n - 2 && waited < delay) delay = waited;
  }
  if (delay > 0 && Number.isFinite(delay)) schedule(R, r, earliest + delay, arrival, start);

  const D = m.dims;
  const load = R.load[r]!;
  const dur = m.vDurations[r]!;
  const dist = m.vDistances[r]!;
  const eloc = R.eloc[r]!;
  const steps: RouteStep[] = [];
  let travelled = 0;
  let distance = 0;
  let service = 0;
  let waiting = 0;
  for (let p = 0; p < n; p++) {
    const node = s[p]!;
    if (p > 0 && !R.isBreak[node]) {
      travelled += dur[eloc[p - 1]! * m.stride + m.loc[node]!]!;
      distance += dist[eloc[p - 1]! * m.stride + m.loc[node]!]!;
    }
    const kind = m.kind[node]!;
    const wait = start[p]! - arrival[p]!;
    service += m.service[node]!;
    waiting += wait;
    const step: RouteStep = {
      type: STEP_TYPES[kind]!,
      arrival: arrival[p]!,
      waitingTime: wait,
      service: m.service[node]!,
      departure: start[p]! + m.service[node]!,
      duration: travelled,
      distance,
      load: Array.from(load.subarray(p * D, (p + 1) * D)),
    };
    if (kind !== START && kind !== END) step.id = m.source[node]!.id;
    if (kind !== BREAK && m.loc[node] !== m.nowhere) step.location = m.loc[node]!;
    steps.push(step);
  }
  return {
    vehicle: m.problem.vehicles[r]!.id,
    steps,
    cost: R.cost[r]!,
    duration: travelled,
    distance,
    service,
    waitingTime: waiting,
  };
}

export function answer(
  R: Routes,
  absent: readonly number[],
  search: RoutingSolution['search'],
): RoutingSolution {
  const m = R.m;
  const routes: PlannedRoute[] = [];
  for (let r = 0; r < m.vehicleCount; r++) if (R.tasks[r]! > 0) routes.push(routeAnswer(R, r));
  const unassigned: UnassignedTask[] = [...absent]
    .sort((a, b) => a - b)
    .map((u) => ({
      id: m.source[m.unitFirst[u]!]!.id,
      type: m.unitSecond[u]! < 0 ? ('job' as const) : ('shipment' as const),
      reason: unassignedReason(R, u),
    }));
  const sum = (key: 'cost' | 'duration' | 'distance' | 'service' | 'waitingTime') =>
    routes.reduce((total, route) => total + route[key], 0);
  return {
    routes,
    unassigned,
    summary: {
      cost: sum('cost'),
      routes: routes.length,
      unassigned: unassigned.length,
      duration: sum('duration'),
      distance: sum('distance'),
      service: sum('service'),
      waitingTime: sum('waitingTime'),
    },
    search,
  };
}
