/**
 * The checks a routing problem passes before any search: each fault is named by its path in the
 * problem (`vehicles[2].timeWindow`), all of them at once, so that whoever built the problem (the
 * day's planner, from the operator's vehicles and shifts) can say which input was wrong.
 */
import { AppError, type ErrorDetail } from '../../errors.ts';
import type { RoutingMatrices, RoutingProblem, TaskStep, TimeWindow } from './ports.ts';

/** Error bodies carry at most 50 details (docs/testing.md). */
const MAX_DETAILS = 50;

class Faults {
  readonly details: ErrorDetail[] = [];
  add(field: string, message: string): void {
    if (this.details.length < MAX_DETAILS) this.details.push({ field, message });
  }
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isAmount = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function checkMatrix(faults: Faults, field: string, matrix: unknown, size: number): void {
  if (!Array.isArray(matrix) || matrix.length !== size) {
    faults.add(field, `must be a square matrix of ${size} rows`);
    return;
  }
  for (let i = 0; i < size; i++) {
    const row: unknown = matrix[i];
    if (!Array.isArray(row) || row.length !== size) {
      faults.add(`${field}[${i}]`, `must have ${size} columns`);
      return;
    }
    for (let j = 0; j < size; j++) {
      if (!isAmount(row[j])) {
        faults.add(`${field}[${i}][${j}]`, 'must be a finite number ≥ 0');
        return;
      }
    }
  }
}

function checkMatrices(faults: Faults, matrices: RoutingProblem['matrices']): Map<string, number> {
  const sizes = new Map<string, number>();
  if (typeof matrices !== 'object' || matrices === null) {
    faults.add('matrices', 'must map each profile to its matrices');
    return sizes;
  }
  for (const [profile, m] of Object.entries(matrices) as [string, RoutingMatrices][]) {
    const field = `matrices.${profile}`;
    const size = Array.isArray(m?.durations) ? m.durations.length : 0;
    if (size === 0) {
      faults.add(`${field}.durations`, 'must be a non-empty square matrix');
      continue;
    }
    checkMatrix(faults, `${field}.durations`, m.durations, size);
    if (m.distances !== undefined) checkMatrix(faults, `${field}.distances`, m.distances, size);
    if (m.costs !== undefined) checkMatrix(faults, `${field}.costs`, m.costs, size);
    sizes.set(profile, size);
  }
  if (new Set(sizes.values()).size > 1)
    faults.add('matrices', 'every profile’s matrices must cover the same locations (same size)');
  return sizes;
}

function checkWindows(faults: Faults, field: string, windows: readonly TimeWindow[] | undefined): void {
  if (windows === undefined) return;
  if (!Array.isArray(windows) || windows.length === 0) {
    faults.add(field, 'must list at least one [start, end] window (or be left out)');
    return;
  }
  windows.forEach((w, i) => {
    checkWindow(faults, `${field}[${i}]`, w);
  });
}

function checkWindow(faults: Faults, field: string, w: TimeWindow | undefined): void {
  if (w === undefined) return;
  if (
    !Array.isArray(w) ||
    w.length !== 2 ||
    !Number.isFinite(w[0]) ||
    !Number.isFinite(w[1]) ||
    (w[0] as number) > (w[1] as number)
  )
    faults.add(field, 'must be [start, end] with start ≤ end');
}

/** Every amount and capacity has the same number of dimensions; returns it (0 when none is given). */
function checkDimensions(faults: Faults, problem: RoutingProblem): number {
  const vectors: [string, readonly number[] | undefined][] = [];
  (problem.jobs ?? []).forEach((j, i) => {
    vectors.push([`jobs[${i}].delivery`, j.delivery], [`jobs[${i}].pickup`, j.pickup]);
  });
  (problem.shipments ?? []).forEach((s, i) => {
    vectors.push([`shipments[${i}].amount`, s.amount]);
  });
  (problem.vehicles ?? []).forEach((v, i) => {
    vectors.push([`vehicles[${i}].capacity`, v.capacity]);
  });
  let dims: number | undefined;
  for (const [field, vector] of vectors) {
    if (vector === undefined) continue;
    if (!Array.isArray(vector) || !vector.every(isAmount)) {
      faults.add(field, 'must be an array of numbers ≥ 0');
      continue;
    }
    if (dims === undefined) dims = vector.length;
    else if (vector.length !== dims)
      faults.add(field, `must have ${dims} dimensions, as the first amount given`);
  }
  return dims ?? 0;
}

function checkLocation(faults: Faults, field: string, location: unknown, size: number | undefined): void {
  if (!isCount(location)) faults.add(field, 'must be a location index (an integer ≥ 0)');
  else if (size !== undefined && location >= size)
    faults.add(field, `must be below ${size}, the size of the matrices`);
}

/** The matrices' size, when one is known (all profiles share it). */
function commonSize(sizes: Map<string, number>): number | undefined {
  return sizes.size === 0 ? undefined : Math.min(...sizes.values());
}

function checkSkills(faults: Faults, field: string, skills: readonly string[] | undefined): void {
  if (skills !== undefined && (!Array.isArray(skills) || !skills.every((s) => typeof s === 'string')))
    faults.add(field, 'must be an array of strings');
}

/** Throws one `invalid_request` AppError listing every fault of the problem; returns when it has none. */
export function checkProblem(problem: RoutingProblem): void {
  const faults = new Faults();
  const sizes = checkMatrices(faults, problem.matrices);
  const size = commonSize(sizes);
  checkDimensions(faults, problem);

  const taskIds = new Map<string, 'job' | 'shipment'>();
  const vehicleIds = new Set((problem.vehicles ?? []).map((v) => v.id));
  const claimId = (field: string, id: unknown, kind: 'job' | 'shipment') => {
    if (typeof id !== 'string' || id === '') faults.add(field, 'must be a non-empty string');
    else if (taskIds.has(id))
      faults.add(field, `"${id}" is used twice (job and shipment ids share one space)`);
    else taskIds.set(id, kind);
  };
  const checkRequirements = (
    field: string,
    t: { skills?: readonly string[]; priority?: number; vehicle?: string },
  ) => {
    checkSkills(faults, `${field}.skills`, t.skills);
    if (t.priority !== undefined && (!isCount(t.priority) || t.priority > 100))
      faults.add(`${field}.priority`, 'must be an integer from 0 to 100');
    if (t.vehicle !== undefined && !vehicleIds.has(t.vehicle))
      faults.add(`${field}.vehicle`, `names no vehicle of the problem ("${t.vehicle}")`);
  };
  const checkPlace = (
    field: string,
    p: { location: number; service?: number; timeWindows?: readonly TimeWindow[] } | undefined,
  ) => {
    if (typeof p !== 'object' || p === null) {
      faults.add(field, 'is required');
      return;
    }
    checkLocation(faults, `${field}.location`, p.location, size);
    if (p.service !== undefined && !isAmount(p.service))
      faults.add(`${field}.service`, 'must be ≥ 0 seconds');
    checkWindows(faults, `${field}.timeWindows`, p.timeWindows);
  };

  (problem.jobs ?? []).forEach((job, i) => {
    const field = `jobs[${i}]`;
    claimId(`${field}.id`, job.id, 'job');
    checkPlace(field, job);
    checkRequirements(field, job);
  });
  (problem.shipments ?? []).forEach((shipment, i) => {
    const field = `shipments[${i}]`;
    claimId(`${field}.id`, shipment.id, 'shipment');
    checkPlace(`${field}.pickup`, shipment.pickup);
    checkPlace(`${field}.delivery`, shipment.delivery);
    checkRequirements(field, shipment);
  });

  if (!Array.isArray(problem.vehicles)) faults.add('vehicles', 'must be an array');
  const seenVehicles = new Set<string>();
  const fixedOn = new Map<string, string>();
  (problem.vehicles ?? []).forEach((v, i) => {
    const field = `vehicles[${i}]`;
    if (typeof v.id !== 'string' || v.id === '') faults.add(`${field}.id`, 'must be a non-empty string');
    else if (seenVehicles.has(v.id)) faults.add(`${field}.id`, `"${v.id}" is used twice`);
    seenVehicles.add(v.id);
    const profile = v.profile ?? 'car';
    const profileSize = sizes.get(profile);
    if (profileSize === undefined && typeof problem.matrices === 'object')
      faults.add(`${field}.profile`, `has no matrices ("${profile}")`);
    if (v.start === undefined && v.end === undefined) faults.add(field, 'needs a start or an end location');
    if (v.start !== undefined) checkLocation(faults, `${field}.start`, v.start, profileSize);
    if (v.end !== undefined) checkLocation(faults, `${field}.end`, v.end, profileSize);
    checkWindow(faults, `${field}.timeWindow`, v.timeWindow);
    checkSkills(faults, `${field}.skills`, v.skills);
    if (v.maxTasks !== undefined && !isCount(v.maxTasks))
      faults.add(`${field}.maxTasks`, 'must be an integer ≥ 0');
    const costs = v.costs ?? {};
    for (const key of ['fixed', 'perHour', 'perKm'] as const) {
      if (costs[key] !== undefined && !isAmount(costs[key]))
        faults.add(`${field}.costs.${key}`, 'must be ≥ 0');
    }
    const m = problem.matrices?.[profile];
    if (m?.costs !== undefined && (costs.perHour !== undefined || costs.perKm !== undefined))
      faults.add(`${field}.costs`, 'perHour and perKm do not apply when the profile has a cost matrix');
    if ((costs.perKm ?? 0) > 0 && m !== undefined && m.distances === undefined)
      faults.add(`${field}.costs.perKm`, 'needs the profile’s distances matrix');
    const breakIds = new Set<string>();
    (v.breaks ?? []).forEach((b, k) => {
      const bField = `${field}.breaks[${k}]`;
      if (typeof b.id !== 'string' || b.id === '') faults.add(`${bField}.id`, 'must be a non-empty string');
      else if (breakIds.has(b.id)) faults.add(`${bField}.id`, `"${b.id}" is used twice on this vehicle`);
      breakIds.add(b.id);
      if (!isAmount(b.service)) faults.add(`${bField}.service`, 'must be ≥ 0 seconds');
      checkWindows(faults, `${bField}.timeWindows`, b.timeWindows);
    });
    checkFixedSteps(faults, field, v.id, v.fixedSteps, taskIds, fixedOn);
  });
  checkFixedShipments(faults, problem, fixedOn);
  checkPins(faults, problem, fixedOn);

  if (faults.details.length === 0) return;
  const [first] = faults.details;
  const message =
    faults.details.length === 1
      ? `${first!.field}: ${first!.message}`
      : `Invalid routing problem: ${faults.details.map((d) => `${d.field} ${d.message}`).join('; ')}.`;
  throw new AppError('invalid_request', message.slice(0, 1000), faults.details);
}

function checkFixedSteps(
  faults: Faults,
  field: string,
  vehicleId: string,
  steps: readonly TaskStep[] | undefined,
  taskIds: Map<string, 'job' | 'shipment'>,
  fixedOn: Map<string, string>,
): void {
  (steps ?? []).forEach((step, k) => {
    const sField = `${field}.fixedSteps[${k}]`;
    const kind = taskIds.get(step.id);
    const expected = step.type === 'job' ? 'job' : 'shipment';
    if (kind === undefined) faults.add(sField, `names no task of the problem ("${step.id}")`);
    else if (kind !== expected) faults.add(`${sField}.type`, `"${step.id}" is a ${kind}, not a ${step.type}`);
    const key = `${step.type}:${step.id}`;
    if (fixedOn.has(key)) faults.add(sField, `"${step.id}" is already fixed (${step.type})`);
    else fixedOn.set(key, vehicleId);
  });
  // A shipment's pickup must come before its delivery on the same vehicle.
  const pickedAt = new Map<string, number>();
  (steps ?? []).forEach((step, k) => {
    if (step.type === 'pickup') pickedAt.set(step.id, k);
  });
  (steps ?? []).forEach((step, k) => {
    if (step.type === 'delivery' && (pickedAt.get(step.id) ?? -1) > k)
      faults.add(`${field}.fixedSteps[${k}]`, `delivers "${step.id}" before picking it up`);
  });
}

/** A shipment is fixed whole (both ends, on one vehicle) or not at all. */
function checkFixedShipments(faults: Faults, problem: RoutingProblem, fixedOn: Map<string, string>): void {
  (problem.shipments ?? []).forEach((s, i) => {
    const p = fixedOn.get(`pickup:${s.id}`);
    const d = fixedOn.get(`delivery:${s.id}`);
    if (p !== d)
      faults.add(
        `shipments[${i}]`,
        'fixed on a vehicle by one end only: fix both ends on the same vehicle (or make a delivery on board a job)',
      );
  });
}

/** A pin and a fixed step must agree; a locked vehicle takes no pinned task that is not fixed on it. */
function checkPins(faults: Faults, problem: RoutingProblem, fixedOn: Map<string, string>): void {
  const locked = new Set((problem.vehicles ?? []).filter((v) => v.locked).map((v) => v.id));
  const check = (field: string, id: string, type: string, vehicle: string | undefined) => {
    const fixed = fixedOn.get(`${type}:${id}`);
    if (vehicle !== undefined && fixed !== undefined && fixed !== vehicle)
      faults.add(`${field}.vehicle`, `pins "${id}" to "${vehicle}" but it is fixed on "${fixed}"`);
    if (vehicle !== undefined && fixed === undefined && locked.has(vehicle))
      faults.add(`${field}.vehicle`, `pins "${id}" to "${vehicle}", which is locked to its fixed steps`);
  };
  (problem.jobs ?? []).forEach((j, i) => {
    check(`jobs[${i}]`, j.id, 'job', j.vehicle);
  });
  (problem.shipments ?? []).forEach((s, i) => {
    check(`shipments[${i}]`, s.id, 'pickup', s.vehicle);
  });
}
