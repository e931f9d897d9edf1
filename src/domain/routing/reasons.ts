/**
 * Why a task was left out, from the most basic cause to the most circumstantial: no vehicle it may
 * ride, none with its skills, none large enough, its window or the shifts out of reach even alone
 * on a vehicle; else, in the final routes, no room left (capacity), or room only if its window were
 * wider (time_window), or none even then (shift: the routes' days are full).
 */
import { newPlacement, placeJob, placeShipment } from './insertion.ts';
import type { Model } from './model.ts';
import type { UnassignedReason } from './ports.ts';
import { Random } from './random.ts';
import type { Routes } from './routes.ts';
import { fitsAlone, fitsCapacity, hasSkills, mayRide } from './unit-facts.ts';

export function unassignedReason(R: Routes, u: number): UnassignedReason {
  const m = R.m;
  const K = m.vehicleCount;
  const all = Array.from({ length: K }, (_, v) => v);
  const riding = all.filter((v) => mayRide(m, m.unitFixedOn, u, v));
  if (riding.length === 0) return 'no_vehicle';
  const skilled = riding.filter((v) => hasSkills(m.problem, u, v));
  if (skilled.length === 0) return 'skills';
  const size = m.unitSecond[u]! < 0 ? 1 : 2;
  const large = skilled.filter((v) => fitsCapacity(m, u, v) && m.vMaxTasks[v]! >= size);
  if (large.length === 0) return 'capacity';
  const alone = large.filter((v) => fitsAlone(m, u, v, false, false));
  if (alone.length === 0) return large.some((v) => windowIsTheLimit(m, u, v)) ? 'time_window' : 'shift';
  if (!alone.some((r) => roomFor(R, r, u))) return 'capacity';
  return withWindowsRelaxed(m, u, () => alone.some((r) => placeable(R, r, u))) ? 'time_window' : 'shift';
}

/** Alone on the vehicle: the trip fits the shift, and the task's windows meet the shift, yet not the arrival. */
function windowIsTheLimit(m: Model, u: number, v: number): boolean {
  if (!fitsAlone(m, u, v, false, true)) return false;
  const start = m.vStart[v]!;
  const shiftOpen = m.twOpen[m.twFirst[start]!]!;
  const shiftClose = m.twClose[m.twEnd[start]! - 1]!;
  const nodes = m.unitSecond[u]! < 0 ? [m.unitFirst[u]!] : [m.unitFirst[u]!, m.unitSecond[u]!];
  return nodes.every((node) => {
    for (let w = m.twFirst[node]!; w < m.twEnd[node]!; w++)
      if (m.twOpen[w]! <= shiftClose && m.twClose[w]! >= shiftOpen) return true;
    return false;
  });
}

/** Whether some position of route r leaves room for the unit's loads and its task count. */
function roomFor(R: Routes, r: number, u: number): boolean {
  const m = R.m;
  const D = m.dims;
  const first = m.unitFirst[u]!;
  const shipment = m.unitSecond[u]! >= 0;
  if (R.tasks[r]! + (shipment ? 2 : 1) > m.vMaxTasks[r]!) return false;
  const load = R.load[r]!;
  const pmax = R.pmax[r]!;
  const smax = R.smax[r]!;
  for (let i = 0; i < R.len[r]! - 1; i++) {
    let fits = true;
    for (let d = 0; d < D && fits; d++) {
      const cap = m.vCapacity[r * D + d]!;
      const sl = m.startLoad[first * D + d]!;
      const after = sl + m.delta[first * D + d]!;
      fits = shipment
        ? load[i * D + d]! + after <= cap
        : pmax[i * D + d]! + sl <= cap &&
          load[i * D + d]! + after <= cap &&
          smax[(i + 1) * D + d]! + after <= cap;
    }
    if (fits) return true;
  }
  return false;
}

function placeable(R: Routes, r: number, u: number): boolean {
  const m = R.m;
  const best = newPlacement();
  const rng = new Random(0);
  if (m.unitSecond[u]! < 0) placeJob(R, r, m.unitFirst[u]!, rng, 0, best);
  else placeShipment(R, r, m.unitFirst[u]!, m.unitSecond[u]!, new Float64Array(m.dims), rng, 0, best);
  return best.route >= 0;
}

/** Runs `check` with the unit's windows opened to any time, then puts them back. */
function withWindowsRelaxed(m: Model, u: number, check: () => boolean): boolean {
  const nodes = m.unitSecond[u]! < 0 ? [m.unitFirst[u]!] : [m.unitFirst[u]!, m.unitSecond[u]!];
  const saved = nodes.map((node) => {
    const w = m.twFirst[node]!;
    const end = m.twEnd[node]!;
    const copy = { open: m.twOpen.slice(w, end), close: m.twClose.slice(w, end) };
    m.twOpen.fill(Number.NEGATIVE_INFINITY, w, end);
    m.twClose.fill(Number.POSITIVE_INFINITY, w, end);
    return copy;
  });
  try {
    return check();
  } finally {
    nodes.forEach((node, i) => {
      m.twOpen.set(saved[i]!.open, m.twFirst[node]!);
      m.twClose.set(saved[i]!.close, m.twFirst[node]!);
    });
  }
}
