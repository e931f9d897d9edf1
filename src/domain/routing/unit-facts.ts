/**
 * What the search knows of each unit (job or shipment) before it starts: which vehicles may take it
 * (its pin, the vehicle's lock, skills, capacity, and the unit alone within the shift), what leaving
 * it out weighs, its sort keys, and each task's nearest tasks for the ruin step. The same checks
 * explain, afterwards, why a unit was left out (reasons.ts).
 */
import { firstStart, type Model } from './model.ts';
import type { RoutingProblem } from './ports.ts';

/** How many nearest tasks each task keeps: enough for the ruin step to reach a few routes. */
const NEIGHBOURS = 128;

/** The model before these facts are added. */
export type ModelCore = Omit<
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
  m: ModelCore,
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
export function fitsCapacity(m: ModelCore, u: number, v: number): boolean {
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
export function mayRide(m: ModelCore, unitFixedOn: Int32Array, u: number, v: number): boolean {
  if (unitFixedOn[u]! >= 0) return unitFixedOn[u] === v;
  if (m.vLocked[v]) return false;
  const jobs = m.problem.jobs ?? [];
  const pin = u < jobs.length ? jobs[u]!.vehicle : m.problem.shipments![u - jobs.length]!.vehicle;
  return pin === undefined || m.problem.vehicles[v]!.id === pin;
}

export function unitFacts(m: ModelCore, unitFixedOn: Int32Array) {
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

export function neighbourLists(m: ModelCore, taskCount: number) {
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
