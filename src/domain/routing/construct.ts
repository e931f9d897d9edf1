/**
 * The first solution, by regret insertion (Potvin & Rousseau 1993; Ropke & Pisinger 2006): at each
 * step, the task whose best route is most ahead of its second best is inserted at its best place.
 * A task that fits only one route goes first, so that a fixed fleet serves everything it can
 * before the easy tasks fill the room. Each task's best place in each route is kept and only the
 * changed route is priced again, so a step costs one route's worth of pricing per task.
 */
import { newPlacement, placeJob, placeShipment } from './insertion.ts';
import { Random } from './random.ts';
import type { Routes } from './routes.ts';

/** Inserts the given units (in `units`); returns the ones left out. */
export function constructByRegret(R: Routes, units: readonly number[]): number[] {
  const m = R.m;
  const K = m.vehicleCount;
  const n = units.length;
  const cost = new Float64Array(n * K);
  const pos = new Int32Array(n * K);
  const pos2 = new Int32Array(n * K);
  const done = new Uint8Array(n);
  const runMax = new Float64Array(m.dims);
  const rng = new Random(0);
  const best = newPlacement();
  const price = (i: number, r: number) => {
    const u = units[i]!;
    best.cost = Number.POSITIVE_INFINITY;
    best.route = -1;
    if (m.eligible[u * K + r]) {
      const second = m.unitSecond[u]!;
      if (second < 0) placeJob(R, r, m.unitFirst[u]!, rng, 0, best);
      else placeShipment(R, r, m.unitFirst[u]!, second, runMax, rng, 0, best);
    }
    cost[i * K + r] = best.route < 0 ? Number.POSITIVE_INFINITY : best.cost;
    pos[i * K + r] = best.pos;
    pos2[i * K + r] = best.pos2;
  };
  for (let i = 0; i < n; i++) for (let r = 0; r < K; r++) price(i, r);

  const left: number[] = [];
  for (let step = 0; step < n; step++) {
    let chosen = -1;
    let chosenRegret = Number.NEGATIVE_INFINITY;
    let chosenCost = 0;
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      let first = Number.POSITIVE_INFINITY;
      let second = Number.POSITIVE_INFINITY;
      for (let r = 0; r < K; r++) {
        const c = cost[i * K + r]!;
        if (c < first) {
          second = first;
          first = c;
        } else if (c < second) second = c;
      }
      if (first === Number.POSITIVE_INFINITY) continue;
      // One route left: as urgent as it gets (then by cost, the dearest first).
      const regret = second === Number.POSITIVE_INFINITY ? Number.MAX_VALUE : second - first;
      if (regret > chosenRegret || (regret === chosenRegret && first > chosenCost)) {
        chosen = i;
        chosenRegret = regret;
        chosenCost = first;
      }
    }
    if (chosen < 0) break;
    let route = 0;
    for (let r = 1; r < K; r++) if (cost[chosen * K + r]! < cost[chosen * K + route]!) route = r;
    const u = units[chosen]!;
    R.insertAt(route, pos[chosen * K + route]!, m.unitFirst[u]!);
    if (m.unitSecond[u]! >= 0) R.insertAt(route, pos2[chosen * K + route]!, m.unitSecond[u]!);
    R.rebuild(route);
    done[chosen] = 1;
    for (let i = 0; i < n; i++) if (!done[i]) price(i, route);
  }
  for (let i = 0; i < n; i++) if (!done[i]) left.push(units[i]!);
  return left;
}
