/**
 * The problem as the search reads it: every stop, break, start and end is a node numbered once,
 * described by typed arrays (location, service, windows, loads), and the matrices are flat arrays
 * with one extra "nowhere" location (a zero row and column) for an open start or end, so the inner
 * loops index without branching and allocate nothing.
 */
import type { RoutingProblem, RoutingVehicle, TaskPlace, TimeWindow } from './ports.ts';

export const JOB = 0;
export const PICKUP = 1;
export const DELIVERY = 2;
export const BREAK = 3;
export const START = 4;
export const END = 5;

/** What a node refers to in the problem, for the answer. */
interface NodeSource {
  id: string;
  /** Index of the vehicle (breaks, starts, ends) or of the job / shipment. */
  index: number;
}

export interface Model {
  readonly problem: RoutingProblem;
  /** Locations in the matrices; `nowhere` (= that count) is the open start or end. */
  readonly nowhere: number;
  readonly stride: number;
  readonly dims: number;
  readonly nodeCount: number;
  readonly loc: Int32Array;
  readonly kind: Uint8Array;
  readonly service: Float64Array;
  /** Windows of node n: indices twFirst[n] ≤ w < twEnd[n] of twOpen / twClose, sorted, disjoint. */
  readonly twFirst: Int32Array;
  readonly twEnd: Int32Array;
  readonly twOpen: Float64Array;
  readonly twClose: Float64Array;
  /** Per node and dimension: on board from the start until the node (a job's delivery)… */
  readonly startLoad: Float64Array;
  /** …and the change of the load at the node (pickup − delivery). */
  readonly delta: Float64Array;
  /** The unit (job or shipment) of a task node, −1 for breaks, starts and ends. */
  readonly unitOf: Int32Array;
  /** The vehicle a break, start or end belongs to, −1 for tasks. */
  readonly ownerOf: Int32Array;
  readonly source: NodeSource[];

  readonly unitCount: number;
  readonly jobCount: number;
  /** A job's node, or a shipment's pickup node. */
  readonly unitFirst: Int32Array;
  /** A shipment's delivery node, −1 for a job. */
  readonly unitSecond: Int32Array;
  /**
   * What leaving the unit out weighs, compared before any cost: 1, plus (units + 1) per priority
   * point, so that one higher-priority task outweighs any number of lower ones.
   */
  readonly unitWeight: Float64Array;
  /** The vehicle the unit is fixed on (never moved), −1 when free. */
  readonly unitFixedOn: Int32Array;
  /** eligible[u * vehicleCount + v]: skills, pin, lock, capacity and the unit alone within the shift. */
  readonly eligible: Uint8Array;
  /** Sort keys of the recreate step: size (share of the capacity), cost from the depot. */
  readonly unitSize: Float64Array;
  readonly unitDepotCost: Float64Array;

  readonly vehicleCount: number;
  readonly vStart: Int32Array;
  readonly vEnd: Int32Array;
  /** Per vehicle and dimension, Infinity when unbounded. */
  readonly vCapacity: Float64Array;
  readonly vFixedCost: Float64Array;
  readonly vMaxTasks: Float64Array;
  /** Flat (nowhere + 1)² matrices per vehicle (shared between vehicles of one profile and costs). */
  readonly vDurations: Float64Array[];
  readonly vDistances: Float64Array[];
  readonly vCosts: Float64Array[];
  readonly vBreaks: Int32Array[];
  /** The fixed steps' nodes, in their order. */
  readonly vFixed: Int32Array[];
  readonly vLocked: Uint8Array;

  /** Task nodes by closeness (symmetrised cost), `neighbourCount` per task node, for the ruin step. */
  readonly neighbours: Int32Array;
  readonly neighbourCount: number;
  /** Task nodes in node order (jobs, then shipments' pickups and deliveries). */
  readonly taskNodes: Int32Array;
  /** Mean cost from a task to its nearest other task: the unit of the annealing's temperatures. */
  readonly meanNearestCost: number;
}

/** First time service can start at `node` when arriving at `arrival`; Infinity when every window has closed. */
export function firstStart(m: Model, node: number, arrival: number): number {
  const end = m.twEnd[node]!;
  for (let w = m.twFirst[node]!; w < end; w++) {
    if (arrival <= m.twClose[w]!) {
      const open = m.twOpen[w]!;
      return arrival < open ? open : arrival;
    }
  }
  return Number.POSITIVE_INFINITY;
}

/** Latest arrival at `node` from which service can start no later than `limit`; −Infinity if none. */
export function latestArrival(m: Model, node: number, limit: number): number {
  for (let w = m.twEnd[node]! - 1; w >= m.twFirst[node]!; w--) {
    if (m.twOpen[w]! <= limit) {
      const close = m.twClose[w]!;
      return close < limit ? close : limit;
    }
  }
  return Number.NEGATIVE_INFINITY;
}

/** Sorted, merged windows; none means any time. */
function normaliseWindows(windows: readonly TimeWindow[] | undefined): [number, number][] {
  if (windows === undefined || windows.length === 0)
    return [[Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]];
  const sorted = windows.map((w) => [w[0], w[1]] as [number, number]).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const w of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else merged.push(w);
  }
  return merged;
}

/** A flat matrix with a zero row and column for `nowhere`. */
function flatten(rows: readonly (readonly number[])[], size: number, map?: (a: number, b: number) => number) {
  const stride = size + 1;
  const flat = new Float64Array(stride * stride);
  for (let i = 0; i < size; i++) {
    const row = rows[i]!;
    for (let j = 0; j < size; j++) flat[i * stride + j] = map ? map(i, j) : row[j]!;
  }
  return flat;
}

const VEHICLE_DEFAULT_WINDOW: TimeWindow = [0, Number.POSITIVE_INFINITY];
const NEIGHBOURS = 128;

interface NodeSpec {
  loc: number;
  kind: number;
  service: number;
  windows: [number, number][];
  startLoad?: readonly number[];
  delta?: readonly number[];
  deltaSign?: number;
  unit: number;
  owner: number;
  source: NodeSource;
}

/** Compiles a checked problem (see problem-check.ts). */
export function compileModel(problem: RoutingProblem): Model {
  const jobs = problem.jobs ?? [];
  const shipments = problem.shipments ?? [];
  const vehicles = problem.vehicles;
  const size = Object.values(problem.matrices)[0]?.durations.length ?? 0;
  const nowhere = size;
  const stride = size + 1;
  const dims = dimensionsOf(problem);

  // Matrices, shared between vehicles that travel and pay alike.
  const flatCache = new Map<string, Float64Array>();
  const cached = (key: string, make: () => Float64Array) => {
    let flat = flatCache.get(key);
    if (flat === undefined) {
      flat = make();
      flatCache.set(key, flat);
    }
    return flat;
  };
  const zero = new Float64Array(stride * stride);
  const vDurations = vehicles.map((v) => {
    const p = v.profile ?? 'car';
    return cached(`d:${p}`, () => flatten(problem.matrices[p]!.durations, size));
  });
  const vDistances = vehicles.map((v) => {
    const p = v.profile ?? 'car';
    const rows = problem.matrices[p]!.distances;
    return rows === undefined ? zero : cached(`m:${p}`, () => flatten(rows, size));
  });
  const vCosts = vehicles.map((v, i) => {
    const p = v.profile ?? 'car';
    const m = problem.matrices[p]!;
    if (m.costs !== undefined) return cached(`c:${p}`, () => flatten(m.costs!, size));
    const perHour = v.costs?.perHour ?? 3600;
    const perKm = v.costs?.perKm ?? 0;
    const durations = vDurations[i]!;
    const distances = vDistances[i]!;
    return cached(`c:${p}:${perHour}:${perKm}`, () =>
      flatten(m.durations, size, (a, b) => {
        const k = a * stride + b;
        return (perHour * durations[k]!) / 3600 + (perKm * distances[k]!) / 1000;
      }),
    );
  });

  const specs: NodeSpec[] = [];
  const unitFirst: number[] = [];
  const unitSecond: number[] = [];
  const place = (p: TaskPlace) => ({
    loc: p.location,
    service: p.service ?? 0,
    windows: normaliseWindows(p.timeWindows),
  });
  jobs.forEach((job, u) => {
    unitFirst.push(specs.length);
    unitSecond.push(-1);
    specs.push({
      ...place(job),
      kind: JOB,
      startLoad: job.delivery,
      delta: subtract(job.pickup, job.delivery, dims),
      unit: u,
      owner: -1,
      source: { id: job.id, index: u },
    });
  });
  shipments.forEach((shipment, s) => {
    const u = jobs.length + s;
    unitFirst.push(specs.length);
    unitSecond.push(specs.length + 1);
    const source = { id: shipment.id, index: s };
    specs.push({
      ...place(shipment.pickup),
      kind: PICKUP,
      delta: shipment.amount,
      unit: u,
      owner: -1,
      source,
    });
    specs.push({
      ...place(shipment.delivery),
      kind: DELIVERY,
      delta: subtract(undefined, shipment.amount, dims),
      unit: u,
      owner: -1,
      source,
    });
  });
  const taskCount = specs.length;
  const vStart: number[] = [];
  const vEnd: number[] = [];
  const vBreaks: Int32Array[] = [];
  vehicles.forEach((v, k) => {
    const shift = normaliseWindows([v.timeWindow ?? VEHICLE_DEFAULT_WINDOW]);
    const source = { id: v.id, index: k };
    vStart.push(specs.length);
    specs.push({
      loc: v.start ?? nowhere,
      kind: START,
      service: 0,
      windows: shift,
      unit: -1,
      owner: k,
      source,
    });
    vEnd.push(specs.length);
    specs.push({ loc: v.end ?? nowhere, kind: END, service: 0, windows: shift, unit: -1, owner: k, source });
    const breaks: number[] = [];
    for (const b of v.breaks ?? []) {
      breaks.push(specs.length);
      specs.push({
        loc: nowhere,
        kind: BREAK,
        service: b.service,
        windows: normaliseWindows(b.timeWindows),
        unit: -1,
        owner: k,
        source: { id: b.id, index: k },
      });
    }
    vBreaks.push(Int32Array.from(breaks));
  });

  const n = specs.length;
  const loc = new Int32Array(n);
  const kind = new Uint8Array(n);
  const service = new Float64Array(n);
  const twFirst = new Int32Array(n);
  const twEnd = new Int32Array(n);
  const opens: number[] = [];
  const closes: number[] = [];
  const startLoad = new Float64Array(n * dims);
  const delta = new Float64Array(n * dims);
  const unitOf = new Int32Array(n);
  const ownerOf = new Int32Array(n);
  specs.forEach((s, i) => {
    loc[i] = s.loc;
    kind[i] = s.kind;
    service[i] = s.service;
    twFirst[i] = opens.length;
    for (const [open, close] of s.windows) {
      opens.push(open);
      closes.push(close);
    }
    twEnd[i] = opens.length;
    for (let d = 0; d < dims; d++) {
      startLoad[i * dims + d] = s.startLoad?.[d] ?? 0;
      delta[i * dims + d] = s.delta?.[d] ?? 0;
    }
    unitOf[i] = s.unit;
    ownerOf[i] = s.owner;
  });

  const K = vehicles.length;
  const vCapacity = new Float64Array(K * dims);
  vehicles.forEach((v, k) => {
    for (let d = 0; d < dims; d++) vCapacity[k * dims + d] = v.capacity?.[d] ?? Number.POSITIVE_INFINITY;
  });

  const partial = {
    problem,
    nowhere,
    stride,
    dims,
    nodeCount: n,
    loc,
    kind,
    service,
    twFirst,
    twEnd,
    twOpen: Float64Array.from(opens),
    twClose: Float64Array.from(closes),
    startLoad,
    delta,
    unitOf,
    ownerOf,
    source: specs.map((s) => s.source),
    unitCount: unitFirst.length,
    jobCount: jobs.length,
    unitFirst: Int32Array.from(unitFirst),
    unitSecond: Int32Array.from(unitSecond),
    vehicleCount: K,
    vStart: Int32Array.from(vStart),
    vEnd: Int32Array.from(vEnd),
    vCapacity,
    vFixedCost: Float64Array.from(vehicles, (v) => v.costs?.fixed ?? 0),
    vMaxTasks: Float64Array.from(vehicles, (v) => v.maxTasks ?? Number.POSITIVE_INFINITY),
    vDurations,
    vDistances,
    vCosts,
    vBreaks,
    vLocked: Uint8Array.from(vehicles, (v) => (v.locked ? 1 : 0)),
  };
  const fixed = fixedSteps(problem, partial.unitFirst, partial.unitSecond);
  const units = unitFacts(partial, fixed.unitFixedOn);
  const near = neighbourLists(partial, taskCount);
  return {
    ...partial,
    vFixed: fixed.vFixed,
    unitFixedOn: fixed.unitFixedOn,
    ...units,
    ...near,
  };
}

function dimensionsOf(problem: RoutingProblem): number {
  for (const j of problem.jobs ?? []) {
    if (j.delivery) return j.delivery.length;
    if (j.pickup) return j.pickup.length;
  }
  for (const s of problem.shipments ?? []) if (s.amount) return s.amount.length;
  for (const v of problem.vehicles) if (v.capacity) return v.capacity.length;
  return 0;
}

function subtract(
  a: readonly number[] | undefined,
  b: readonly number[] | undefined,
  dims: number,
): number[] {
  return Array.from({ length: dims }, (_, d) => (a?.[d] ?? 0) - (b?.[d] ?? 0));
}

function fixedSteps(problem: RoutingProblem, unitFirst: Int32Array, unitSecond: Int32Array) {
  const jobs = problem.jobs ?? [];
  const jobIndex = new Map(jobs.map((j, i) => [j.id, i]));
  const shipmentIndex = new Map((problem.shipments ?? []).map((s, i) => [s.id, jobs.length + i]));
  const unitFixedOn = new Int32Array(unitFirst.length).fill(-1);
  const vFixed = problem.vehicles.map((v: RoutingVehicle, k) =>
    Int32Array.from(v.fixedSteps ?? [], (step) => {
      if (step.type === 'job') {
        const u = jobIndex.get(step.id)!;
        unitFixedOn[u] = k;
        return unitFirst[u]!;
      }
      const u = shipmentIndex.get(step.id)!;
      unitFixedOn[u] = k;
      return step.type === 'pickup' ? unitFirst[u]! : unitSecond[u]!;
    }),
  );
  return { vFixed, unitFixedOn };
}

type Partial = Omit<
  Model,
  | 'vFixed'
  | 'unitFixedOn'
  | 'unitWeight'
  | 'eligible'
  | 'unitSize'
  | 'unitDepotCost'
  | 'neighbours'
  | 'neighbourCount'
  | 'taskNodes'
  | 'meanNearestCost'
>;

/** Whether the unit alone fits the vehicle's shift: start → task(s) → end, windows met (breaks aside). */
export function fitsAlone(
  m: Partial,
  u: number,
  v: number,
  ignoreShift: boolean,
  ignoreTask: boolean,
): boolean {
  const S = m.stride;
  const dur = m.vDurations[v]!;
  const startNode = m.vStart[v]!;
  const endNode = m.vEnd[v]!;
  const first = m.unitFirst[u]!;
  const second = m.unitSecond[u]!;
  const startAt = (node: number, arrival: number) => {
    if (ignoreTask) return arrival;
    return firstStart(m as Model, node, arrival);
  };
  let time = ignoreShift ? Number.NEGATIVE_INFINITY : m.twOpen[m.twFirst[startNode]!]!;
  let at = m.loc[startNode]!;
  for (const node of second < 0 ? [first] : [first, second]) {
    const arrival = time + dur[at * S + m.loc[node]!]!;
    const start = startAt(node, arrival);
    if (start === Number.POSITIVE_INFINITY) return false;
    time = start + m.service[node]!;
    at = m.loc[node]!;
  }
  if (ignoreShift) return true;
  return time + dur[at * S + m.loc[endNode]!]! <= m.twClose[m.twEnd[endNode]! - 1]!;
}

/** Whether every dimension of the unit's loads fits the vehicle's capacity. */
export function fitsCapacity(m: Partial, u: number, v: number): boolean {
  const D = m.dims;
  const first = m.unitFirst[u]!;
  for (let d = 0; d < D; d++) {
    const cap = m.vCapacity[v * D + d]!;
    const start = m.startLoad[first * D + d]!;
    const after = start + m.delta[first * D + d]!;
    if (start > cap || after > cap) return false;
  }
  return true;
}

export function hasSkills(problem: RoutingProblem, u: number, v: number): boolean {
  const jobs = problem.jobs ?? [];
  const task = u < jobs.length ? jobs[u]! : problem.shipments![u - jobs.length]!;
  const skills = problem.vehicles[v]!.skills ?? [];
  return (task.skills ?? []).every((s) => skills.includes(s));
}

/** Whether the unit may ride the vehicle at all: its pin, the vehicle's lock, its fixed step. */
export function mayRide(m: Partial, unitFixedOn: Int32Array, u: number, v: number): boolean {
  if (unitFixedOn[u]! >= 0) return unitFixedOn[u] === v;
  if (m.vLocked[v]) return false;
  const jobs = m.problem.jobs ?? [];
  const pin = u < jobs.length ? jobs[u]!.vehicle : m.problem.shipments![u - jobs.length]!.vehicle;
  return pin === undefined || m.problem.vehicles[v]!.id === pin;
}

function unitFacts(m: Partial, unitFixedOn: Int32Array) {
  const U = m.unitCount;
  const K = m.vehicleCount;
  const D = m.dims;
  const S = m.stride;
  const eligible = new Uint8Array(U * K);
  const unitSize = new Float64Array(U);
  const unitDepotCost = new Float64Array(U);
  const unitWeight = new Float64Array(U);
  const maxCapacity = new Float64Array(D);
  for (let d = 0; d < D; d++) {
    for (let v = 0; v < K; v++) {
      const c = m.vCapacity[v * D + d]!;
      if (Number.isFinite(c) && c > maxCapacity[d]!) maxCapacity[d] = c;
    }
  }
  const jobs = m.problem.jobs ?? [];
  const depot = K > 0 ? (m.loc[m.vStart[0]!] !== m.nowhere ? m.loc[m.vStart[0]!]! : m.loc[m.vEnd[0]!]!) : 0;
  const cost0 = K > 0 ? m.vCosts[0]! : undefined;
  for (let u = 0; u < U; u++) {
    const task = u < jobs.length ? jobs[u]! : m.problem.shipments![u - jobs.length]!;
    unitWeight[u] = 1 + (U + 1) * (task.priority ?? 0);
    const first = m.unitFirst[u]!;
    const second = m.unitSecond[u]!;
    let size = 0;
    for (let d = 0; d < D; d++) {
      const amount = Math.max(
        m.startLoad[first * D + d]!,
        m.startLoad[first * D + d]! + m.delta[first * D + d]!,
      );
      if (maxCapacity[d]! > 0) size += amount / maxCapacity[d]!;
    }
    unitSize[u] = size;
    unitDepotCost[u] = cost0 ? cost0[depot * S + m.loc[first]!]! : 0;
    for (let v = 0; v < K; v++) {
      eligible[u * K + v] =
        mayRide(m, unitFixedOn, u, v) &&
        hasSkills(m.problem, u, v) &&
        fitsCapacity(m, u, v) &&
        m.vMaxTasks[v]! >= (second < 0 ? 1 : 2) &&
        fitsAlone(m, u, v, false, false)
          ? 1
          : 0;
    }
  }
  return { eligible, unitSize, unitDepotCost, unitWeight };
}

function neighbourLists(m: Partial, taskCount: number) {
  const count = Math.min(NEIGHBOURS, Math.max(0, taskCount - 1));
  const neighbours = new Int32Array(taskCount * count);
  const taskNodes = Int32Array.from({ length: taskCount }, (_, i) => i);
  const S = m.stride;
  const cost = m.vehicleCount > 0 ? m.vCosts[0]! : new Float64Array(S * S);
  const key = new Float64Array(taskCount);
  const order = new Int32Array(taskCount);
  let nearestSum = 0;
  for (let i = 0; i < taskCount; i++) {
    const li = m.loc[i]!;
    for (let j = 0; j < taskCount; j++) {
      const lj = m.loc[j]!;
      key[j] = j === i ? Number.POSITIVE_INFINITY : cost[li * S + lj]! + cost[lj * S + li]!;
      order[j] = j;
    }
    order.sort((a, b) => key[a]! - key[b]! || a - b);
    for (let k = 0; k < count; k++) neighbours[i * count + k] = order[k]!;
    if (count > 0) nearestSum += key[order[0]!]! / 2;
  }
  const meanNearestCost = taskCount > 1 ? nearestSum / taskCount : 1;
  return {
    neighbours,
    neighbourCount: count,
    taskNodes,
    meanNearestCost: meanNearestCost > 0 ? meanNearestCost : 1,
  };
}
