/**
 * SISR's ruin step: from a random stop, its nearest neighbours lead to up to a few routes (about
 * `averageRemoved` stops in all); from each, a string of consecutive movable stops (tasks not
 * fixed, and breaks) containing the neighbour is removed, or a split string — a longer string of
 * which a few stops in the middle are kept.
 */
import type { Random } from './random.ts';
import type { Routes } from './routes.ts';
import type { SearchParameters } from './search-parameters.ts';

export class StringRemoval {
  private readonly ruined: Int32Array;
  private readonly scratch: Int32Array;

  constructor(
    private readonly R: Routes,
    private readonly rng: Random,
    private readonly p: SearchParameters,
    /** 1 for the nodes the search may move. */
    private readonly removable: Uint8Array,
  ) {
    this.ruined = new Int32Array(R.m.vehicleCount).fill(-1);
    this.scratch = new Int32Array(Math.max(...R.seq.map((s) => s.length), 1));
  }

  /**
   * Chooses the strings of this iteration (`epoch`): `touch(r)` before a route loses anything,
   * `remove(node)` for each node to remove (the routes are compacted by the caller).
   */
  select(epoch: number, touch: (r: number) => void, remove: (node: number) => void): void {
    const R = this.R;
    const m = R.m;
    const rng = this.rng;
    const tasks = m.taskNodes.length;
    if (tasks === 0) return;
    let seed = -1;
    for (let attempt = 0; attempt < 4 * tasks && seed < 0; attempt++) {
      const node = rng.below(tasks);
      if (this.removable[node] && R.routeOf[node]! >= 0) seed = node;
    }
    if (seed < 0) return;

    let used = 0;
    let assigned = 0;
    for (let r = 0; r < m.vehicleCount; r++) {
      if (R.tasks[r]! > 0) {
        used++;
        assigned += R.tasks[r]!;
      }
    }
    const cardinality = used > 0 ? assigned / used : 1;
    const maxString = Math.min(this.p.maxString, cardinality);
    const maxStrings = (4 * this.p.averageRemoved) / (1 + maxString) - 1;
    const strings = Math.floor(rng.next() * maxStrings) + 1;

    let ruinedCount = 0;
    const nb = m.neighbours;
    const count = m.neighbourCount;
    for (let k = -1; k < count && ruinedCount < strings; k++) {
      const c = k < 0 ? seed : nb[seed * count + k]!;
      const r = R.routeOf[c]!;
      if (r < 0 || !this.removable[c] || this.ruined[r] === epoch) continue;
      this.ruined[r] = epoch;
      ruinedCount++;
      touch(r);
      this.removeString(r, c, maxString, remove);
    }
  }

  private removeString(r: number, c: number, maxString: number, remove: (node: number) => void): void {
    const R = this.R;
    const rng = this.rng;
    const s = R.seq[r]!;
    const n = R.len[r]!;
    const cand = this.scratch;
    let count = 0;
    let q = 0;
    for (let p = 1; p < n - 1; p++) {
      const node = s[p]!;
      if (!this.removable[node]) continue;
      if (node === c) q = count;
      cand[count++] = node;
    }
    const limit = Math.min(count, maxString);
    const l = Math.floor(rng.next() * limit) + 1;
    let kept = 0;
    if (l < count && rng.next() < this.p.splitRate) {
      kept = 1;
      while (l + kept < count && rng.next() > this.p.splitDepth) kept++;
    }
    const width = l + kept;
    const lo = Math.max(0, q - width + 1);
    const hi = Math.min(q, count - width);
    const from = lo + rng.below(hi - lo + 1);
    const keptFrom = kept > 0 ? from + rng.below(l + 1) : -1;
    for (let i = from; i < from + width; i++) {
      if (kept > 0 && i >= keptFrom && i < keptFrom + kept) continue;
      remove(cand[i]!);
    }
  }
}
