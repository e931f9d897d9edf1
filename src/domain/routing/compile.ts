/**
 * Compiles a checked problem (see problem-check.ts) into the search's model (model.ts): nodes for
 * every stop, break, start and end, flat matrices shared between vehicles that travel and pay
 * alike, then each unit's facts (unit-facts.ts).
 */
import { BREAK, DELIVERY, END, JOB, type Model, type NodeSource, PICKUP, START } from './model.ts';
import type { RoutingProblem, RoutingVehicle, TaskPlace, TimeWindow } from './ports.ts';
import { neighbourLists, unitFacts } from './unit-facts.ts';

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
