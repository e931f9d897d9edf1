/**
 * Where a task goes cheapest in a route: every position is priced (the detour's cost) and checked
 * (capacity against the running maxima, time against the earliest departure before and the latest
 * arrival after) in constant time, except a shipment's delivery, whose position is scanned forward
 * from its pickup while the schedule in between is pushed later and stays feasible. "Blinks" (SISR)
 * skip a position at random, so that equal choices do not always go the same way.
 */
import { firstStart } from './model.ts';
import type { Random } from './random.ts';
import type { Routes } from './routes.ts';

/** The best move found so far; reused, never allocated per call. */
export interface Placement {
  cost: number;
  route: number;
  /** Position of the job, or of the shipment's pickup (in the route before insertion). */
  pos: number;
  /** Position of the shipment's delivery in the route once the pickup is in; −1 for a job. */
  pos2: number;
}

export const newPlacement = (): Placement => ({
  cost: Number.POSITIVE_INFINITY,
  route: -1,
  pos: -1,
  pos2: -1,
});

/** What using an empty route adds: the start-to-end leg its cost leaves out, and its fixed cost. */
function emptyRouteExtra(R: Routes, r: number): number {
  if (R.tasks[r]! > 0) return 0;
  const m = R.m;
  const s = R.seq[r]!;
  const n = R.len[r]!;
  return m.vCosts[r]![m.loc[s[0]!]! * m.stride + m.loc[s[n - 1]!]!]! + m.vFixedCost[r]!;
}

/** Updates `best` with the cheapest feasible position of job `node` in route r. */
export function placeJob(
  R: Routes,
  r: number,
  node: number,
  rng: Random,
  blink: number,
  best: Placement,
): void {
  const m = R.m;
  if (R.tasks[r]! + 1 > m.vMaxTasks[r]!) return;
  const n = R.len[r]!;
  const eloc = R.eloc[r]!;
  const nrl = R.nrl[r]!;
  const dep = R.dep[r]!;
  const S = m.stride;
  const dur = m.vDurations[r]!;
  const cst = m.vCosts[r]!;
  const lj = m.loc[node]!;
  const sj = m.service[node]!;
  const lastClose = m.twClose[m.twEnd[node]! - 1]!;
  const extra = emptyRouteExtra(R, r);
  const D = m.dims;
  const load = R.load[r]!;
  const pmax = R.pmax[r]!;
  const smax = R.smax[r]!;
  const startLoad = m.startLoad;
  const delta = m.delta;
  const cap = m.vCapacity;
  for (let i = 0; i < n - 1; i++) {
    const leave = dep[i]!;
    if (leave > lastClose) break;
    if (blink > 0 && rng.next() < blink) continue;
    const a = eloc[i]!;
    const b = nrl[i + 1]!;
    const cost = cst[a * S + lj]! + cst[lj * S + b]! - cst[a * S + b]! + extra;
    if (cost >= best.cost) continue;
    let fits = true;
    for (let d = 0; d < D; d++) {
      const c = cap[r * D + d]!;
      const sl = startLoad[node * D + d]!;
      const after = sl + delta[node * D + d]!;
      if (pmax[i * D + d]! + sl > c || load[i * D + d]! + after > c || smax[(i + 1) * D + d]! + after > c) {
        fits = false;
        break;
      }
    }
    if (!fits) continue;
    const start = firstStart(m, node, leave + dur[a * S + lj]!);
    if (start === Number.POSITIVE_INFINITY || !R.tailFits(r, i + 1, start + sj, lj)) continue;
    best.cost = cost;
    best.route = r;
    best.pos = i + 1;
    best.pos2 = -1;
  }
}

/** Updates `best` with the cheapest feasible pickup and delivery positions of a shipment in route r. */
export function placeShipment(
  R: Routes,
  r: number,
  pickup: number,
  delivery: number,
  runMax: Float64Array,
  rng: Random,
  blink: number,
  best: Placement,
): void {
  const m = R.m;
  if (R.tasks[r]! + 2 > m.vMaxTasks[r]!) return;
  const s = R.seq[r]!;
  const n = R.len[r]!;
  const eloc = R.eloc[r]!;
  const nrl = R.nrl[r]!;
  const dep = R.dep[r]!;
  const latest = R.latest[r]!;
  const S = m.stride;
  const dur = m.vDurations[r]!;
  const cst = m.vCosts[r]!;
  const loc = m.loc;
  const isBreak = R.isBreak;
  const lp = loc[pickup]!;
  const ld = loc[delivery]!;
  const sp = m.service[pickup]!;
  const sd = m.service[delivery]!;
  const lastClose = m.twClose[m.twEnd[pickup]! - 1]!;
  const extra = emptyRouteExtra(R, r);
  const D = m.dims;
  const load = R.load[r]!;
  const amount = m.delta;
  const cap = m.vCapacity;
  for (let i = 0; i < n - 1; i++) {
    const leave = dep[i]!;
    if (leave > lastClose) break;
    if (blink > 0 && rng.next() < blink) continue;
    const a = eloc[i]!;
    const b1 = nrl[i + 1]!;
    const pickupCost = cst[a * S + lp]! + cst[lp * S + b1]! - cst[a * S + b1]!;
    // The delivery's detour only adds to the pickup's (triangle inequality): nothing cheaper here.
    if (pickupCost + extra >= best.cost) continue;
    const startP = firstStart(m, pickup, leave + dur[a * S + lp]!);
    if (startP === Number.POSITIVE_INFINITY) continue;
    let time = startP + sp;
    let prev = lp;
    let realBetween = false;
    for (let d = 0; d < D; d++) runMax[d] = load[i * D + d]!;
    for (let k = i; k < n - 1; k++) {
      // The delivery between k and k + 1, the pickup already between i and i + 1.
      let fits = true;
      for (let d = 0; d < D; d++) {
        if (runMax[d]! + amount[pickup * D + d]! > cap[r * D + d]!) {
          fits = false;
          break;
        }
      }
      if (!fits) break;
      const nk = nrl[k + 1]!;
      const cost = realBetween
        ? pickupCost + cst[prev * S + ld]! + cst[ld * S + nk]! - cst[prev * S + nk]! + extra
        : cst[a * S + lp]! + cst[lp * S + ld]! + cst[ld * S + nk]! - cst[a * S + nk]! + extra;
      if (cost < best.cost) {
        const startD = firstStart(m, delivery, time + dur[prev * S + ld]!);
        if (startD !== Number.POSITIVE_INFINITY && R.tailFits(r, k + 1, startD + sd, ld)) {
          best.cost = cost;
          best.route = r;
          best.pos = i + 1;
          best.pos2 = k + 2;
        }
      }
      // Push the schedule on to the node at k + 1, which the next delivery position follows.
      const node = s[k + 1]!;
      if (k + 1 === n - 1) break;
      let start: number;
      if (isBreak[node]) start = firstStart(m, node, time);
      else {
        const arrival = time + dur[prev * S + loc[node]!]!;
        if (arrival > latest[k + 1]!) break;
        start = firstStart(m, node, arrival);
        prev = loc[node]!;
        realBetween = true;
      }
      if (start === Number.POSITIVE_INFINITY) break;
      time = start + m.service[node]!;
      for (let d = 0; d < D; d++) {
        const x = load[(k + 1) * D + d]!;
        if (x > runMax[d]!) runMax[d] = x;
      }
    }
  }
}

/**
 * Where a break fits route r with the least delay (waiting plus its own length): ties to the
 * earliest position. Returns the position, or −1.
 */
export function placeBreak(R: Routes, r: number, node: number): number {
  const m = R.m;
  const n = R.len[r]!;
  const dep = R.dep[r]!;
  const eloc = R.eloc[r]!;
  const service = m.service[node]!;
  let bestPos = -1;
  let bestPush = Number.POSITIVE_INFINITY;
  for (let i = 0; i < n - 1; i++) {
    const start = firstStart(m, node, dep[i]!);
    if (start === Number.POSITIVE_INFINITY) break;
    const push = start + service - dep[i]!;
    if (push < bestPush && R.tailFits(r, i + 1, start + service, eloc[i]!)) {
      bestPush = push;
      bestPos = i + 1;
    }
  }
  return bestPos;
}
