/**
 * An answer checked against its problem by recomputing it, with nothing of the solver's: every task
 * served once or listed unassigned, shipments picked up before they are delivered on one vehicle,
 * skills, pins, fixed steps and locks kept, every break of a used vehicle taken once, each step's
 * times consistent with the matrices (arrival = previous departure + travel, service starting within
 * a window, within the shift) and its load within capacity, and the totals as the steps add up.
 * Written for any `RoundOptimiser`'s answer (the in-process solver's tests, an outside engine's).
 */
import type { RoutingProblem, RoutingSolution, TimeWindow } from './ports.ts';

const EPSILON = 1e-6;

const within = (windows: readonly TimeWindow[] | undefined, t: number) =>
  windows === undefined ||
  windows.length === 0 ||
  windows.some(([a, b]) => t >= a - EPSILON && t <= b + EPSILON);

const close = (a: number, b: number) => Math.abs(a - b) <= EPSILON * Math.max(1, Math.abs(a), Math.abs(b));

interface TaskInfo {
  kind: 'job' | 'shipment';
  location: number;
  service: number;
  windows: readonly TimeWindow[] | undefined;
  skills: readonly string[];
  pin: string | undefined;
  /** Load change at the step, and (jobs) the delivery carried from the start. */
  change: readonly number[];
  fromStart: readonly number[];
}

function tasksOf(problem: RoutingProblem, dims: number): Map<string, TaskInfo> {
  const zero = Array.from({ length: dims }, () => 0);
  const vec = (v: readonly number[] | undefined) => (v === undefined ? zero : [...v]);
  const tasks = new Map<string, TaskInfo>();
  for (const job of problem.jobs ?? []) {
    const delivery = vec(job.delivery);
    const pickup = vec(job.pickup);
    tasks.set(`job:${job.id}`, {
      kind: 'job',
      location: job.location,
      service: job.service ?? 0,
      windows: job.timeWindows,
      skills: job.skills ?? [],
      pin: job.vehicle,
      change: pickup.map((p, d) => p - delivery[d]!),
      fromStart: delivery,
    });
  }
  for (const s of problem.shipments ?? []) {
    const amount = vec(s.amount);
    for (const [type, place, sign] of [
      ['pickup', s.pickup, 1],
      ['delivery', s.delivery, -1],
    ] as const) {
      tasks.set(`${type}:${s.id}`, {
        kind: 'shipment',
        location: place.location,
        service: place.service ?? 0,
        windows: place.timeWindows,
        skills: s.skills ?? [],
        pin: s.vehicle,
        change: amount.map((a) => sign * a),
        fromStart: zero,
      });
    }
  }
  return tasks;
}

/** Every way the answer breaks the problem's rules; empty when it keeps them all. */
export function checkPlan(problem: RoutingProblem, solution: RoutingSolution): string[] {
  const faults: string[] = [];
  const dims = Math.max(
    0,
    ...(problem.vehicles ?? []).map((v) => v.capacity?.length ?? 0),
    ...(problem.jobs ?? []).map((j) => Math.max(j.delivery?.length ?? 0, j.pickup?.length ?? 0)),
    ...(problem.shipments ?? []).map((s) => s.amount?.length ?? 0),
  );
  const tasks = tasksOf(problem, dims);
  const seen = new Map<string, number>();
  const vehiclesUsed = new Set<string>();
  const fixedOn = new Map<string, string>();
  for (const v of problem.vehicles)
    for (const f of v.fixedSteps ?? []) fixedOn.set(`${f.type}:${f.id}`, v.id);

  for (const route of solution.routes) {
    const name = `route of ${route.vehicle}`;
    const vehicle = problem.vehicles.find((v) => v.id === route.vehicle);
    if (vehicle === undefined) {
      faults.push(`${name}: no such vehicle`);
      continue;
    }
    if (vehiclesUsed.has(vehicle.id)) faults.push(`${name}: the vehicle has two routes`);
    vehiclesUsed.add(vehicle.id);
    const m = problem.matrices[vehicle.profile ?? 'car']!;
    const steps = route.steps;
    if (steps[0]?.type !== 'start' || steps[steps.length - 1]?.type !== 'end') {
      faults.push(`${name}: must begin with its start and finish with its end`);
      continue;
    }
    const shift = vehicle.timeWindow;
    const capacity = vehicle.capacity;
    let at: number | undefined = vehicle.start;
    let departure = steps[0]!.departure;
    if (shift && departure < shift[0] - EPSILON) faults.push(`${name}: leaves before its shift`);
    let travelled = 0;
    let distance = 0;
    let taskCount = 0;
    const breaksTaken = new Set<string>();
    const picked = new Set<string>();
    const fixedOrder: string[] = [];
    // Loads: what the route's jobs deliver is on board from the start.
    const load = Array.from({ length: dims }, () => 0);
    for (const step of steps) {
      if (step.type !== 'job') continue;
      const t = tasks.get(`job:${step.id}`);
      if (t)
        t.fromStart.forEach((x, d) => {
          load[d]! += x;
        });
    }
    const checkLoad = (where: string, claimed: readonly number[]) => {
      load.forEach((x, d) => {
        if (capacity !== undefined && x > capacity[d]! + EPSILON)
          faults.push(`${name}: ${where} carries ${x} over the capacity ${capacity[d]} (dimension ${d})`);
        if (claimed[d] !== undefined && !close(claimed[d]!, x))
          faults.push(`${name}: ${where} claims a load of ${claimed[d]}, not ${x}`);
      });
    };
    checkLoad('the start', steps[0]!.load);

    for (let i = 1; i < steps.length; i++) {
      const step = steps[i]!;
      const where = `${step.type} ${step.id ?? ''}`.trim();
      let location: number | undefined;
      let service = 0;
      let windows: readonly TimeWindow[] | undefined;
      if (step.type === 'break') {
        const b = (vehicle.breaks ?? []).find((x) => x.id === step.id);
        if (b === undefined) faults.push(`${name}: no break "${step.id}" on this vehicle`);
        else if (breaksTaken.has(b.id)) faults.push(`${name}: break "${b.id}" taken twice`);
        else breaksTaken.add(b.id);
        location = at;
        service = b?.service ?? 0;
        windows = b?.timeWindows;
      } else if (step.type === 'end') {
        location = vehicle.end;
        windows = shift ? [shift] : undefined;
      } else if (step.type === 'start') {
        faults.push(`${name}: a second start`);
        continue;
      } else {
        const key = `${step.type}:${step.id}`;
        const t = tasks.get(key);
        if (t === undefined) {
          faults.push(`${name}: no ${step.type} "${step.id}" in the problem`);
          continue;
        }
        seen.set(key, (seen.get(key) ?? 0) + 1);
        taskCount++;
        location = t.location;
        service = t.service;
        windows = t.windows;
        const skills = vehicle.skills ?? [];
        if (!t.skills.every((s) => skills.includes(s))) faults.push(`${name}: lacks the skills of ${where}`);
        if (t.pin !== undefined && t.pin !== vehicle.id)
          faults.push(`${name}: ${where} is pinned to ${t.pin}`);
        const fixed = fixedOn.get(key);
        if (fixed !== undefined && fixed !== vehicle.id)
          faults.push(`${name}: ${where} is fixed on ${fixed}`);
        if (fixed === vehicle.id) fixedOrder.push(key);
        if (fixed === undefined && vehicle.locked) faults.push(`${name}: locked, yet serves ${where}`);
        if (step.type === 'pickup') picked.add(step.id!);
        if (step.type === 'delivery' && !picked.has(step.id!))
          faults.push(`${name}: delivers shipment ${step.id} before picking it up (or on another vehicle)`);
        t.change.forEach((x, d) => {
          load[d]! += x;
        });
      }
      const travel = at === undefined || location === undefined ? 0 : m.durations[at]![location]!;
      const metres =
        at === undefined || location === undefined || !m.distances ? 0 : m.distances[at]![location]!;
      if (step.type !== 'break') {
        travelled += travel;
        distance += metres;
      }
      const arrival = departure + (step.type === 'break' ? 0 : travel);
      if (!close(step.arrival, arrival))
        faults.push(`${name}: ${where} claims arrival ${step.arrival}, not ${arrival}`);
      const start = step.arrival + step.waitingTime;
      if (step.waitingTime < -EPSILON) faults.push(`${name}: ${where} waits a negative time`);
      if (!within(windows, start))
        faults.push(`${name}: ${where} starts at ${start}, outside its time windows`);
      if (step.type !== 'end' && !close(step.departure, start + service))
        faults.push(`${name}: ${where} claims departure ${step.departure}, not ${start + service}`);
      if (step.location !== undefined && step.location !== location)
        faults.push(`${name}: ${where} claims location ${step.location}, not ${location}`);
      if (!close(step.duration, travelled))
        faults.push(`${name}: ${where} claims ${step.duration} s travelled`);
      if (!close(step.distance, distance))
        faults.push(`${name}: ${where} claims ${step.distance} m travelled`);
      checkLoad(where, step.load);
      departure = step.type === 'end' ? start : step.departure;
      if (step.type !== 'break') at = location;
    }
    if (shift && departure > shift[1] + EPSILON) faults.push(`${name}: ends after its shift`);
    if (vehicle.maxTasks !== undefined && taskCount > vehicle.maxTasks)
      faults.push(`${name}: ${taskCount} tasks, more than ${vehicle.maxTasks}`);
    for (const b of vehicle.breaks ?? [])
      if (!breaksTaken.has(b.id)) faults.push(`${name}: break "${b.id}" not taken`);
    const expectedFixed = (vehicle.fixedSteps ?? []).map((f) => `${f.type}:${f.id}`);
    if (expectedFixed.join() !== fixedOrder.join())
      faults.push(`${name}: fixed steps not kept in their order`);
    if (!close(route.duration, travelled))
      faults.push(`${name}: claims ${route.duration} s of travel, not ${travelled}`);
    if (!close(route.distance, distance)) faults.push(`${name}: claims ${route.distance} m, not ${distance}`);
  }

  for (const v of problem.vehicles)
    if ((v.fixedSteps ?? []).length > 0 && !vehiclesUsed.has(v.id))
      faults.push(`vehicle ${v.id}: fixed steps dropped`);
  const unassigned = new Map(solution.unassigned.map((u) => [u.id, u]));
  for (const job of problem.jobs ?? []) {
    const times = seen.get(`job:${job.id}`) ?? 0;
    if (times > 1) faults.push(`job ${job.id} served ${times} times`);
    if (times === 1 && unassigned.has(job.id)) faults.push(`job ${job.id} served and listed unassigned`);
    if (times === 0 && !unassigned.has(job.id))
      faults.push(`job ${job.id} neither served nor listed unassigned`);
  }
  for (const s of problem.shipments ?? []) {
    const p = seen.get(`pickup:${s.id}`) ?? 0;
    const d = seen.get(`delivery:${s.id}`) ?? 0;
    if (p !== d || p > 1) faults.push(`shipment ${s.id}: picked up ${p} and delivered ${d} times`);
    if (p === 1 && unassigned.has(s.id)) faults.push(`shipment ${s.id} served and listed unassigned`);
    if (p === 0 && !unassigned.has(s.id))
      faults.push(`shipment ${s.id} neither served nor listed unassigned`);
  }
  if (solution.summary.routes !== solution.routes.length)
    faults.push('summary.routes differs from the routes');
  if (solution.summary.unassigned !== solution.unassigned.length)
    faults.push('summary.unassigned differs from the list');
  return faults;
}
