/**
 * The search: SISR (Christiaens & Vanden Berghe, "Slack Induction by String Removals for Vehicle
 * Routing Problems", Transportation Science 2020). Each iteration ruins a few routes near a random
 * stop (strings of consecutive stops, sometimes with a few kept in the middle: "split strings"),
 * recreates by cheapest insertion in a random-weighted order with blinks, and keeps the result if
 * it serves more, or as much with tasks absent less often, or the same with a cost simulated
 * annealing accepts (see `accepts`). Changed routes are saved before their first change of an
 * iteration and restored when it is refused.
 */
import { constructByRegret } from './construct.ts';
import { newPlacement, placeBreak, placeJob, placeShipment } from './insertion.ts';
import type { Model } from './model.ts';
import { Random } from './random.ts';
import type { Routes } from './routes.ts';
import type { SearchParameters } from './search-parameters.ts';
import { StringRemoval } from './string-removal.ts';

export interface SearchBudget {
  maxIterations: number;
  timeLimitMs: number;
  clock: () => number;
}

export class Search {
  readonly m: Model;
  readonly R: Routes;
  readonly rng: Random;
  readonly p: SearchParameters;
  iterations = 0;

  private readonly absent: Int32Array;
  absentCount = 0;
  private readonly absentBackup: Int32Array;
  private absentBackupCount = 0;
  private readonly pendingBreaks: Int32Array;
  private pendingCount = 0;
  private readonly removable: Uint8Array;
  private readonly gone: Uint8Array;
  private readonly touched: Int32Array;
  private readonly touchedList: Int32Array;
  private touchedCount = 0;
  private readonly backupSeq: Int32Array[];
  private readonly backupLen: Int32Array;
  private readonly removal: StringRemoval;
  private readonly keys: Float64Array;
  private readonly runMax: Float64Array;
  private readonly best = newPlacement();
  private epoch = 0;

  private readonly bestSeq: Int32Array[];
  private readonly bestLen: Int32Array;
  private readonly bestAbsent: Int32Array;
  private bestAbsentCount = 0;
  /** The best solution's weight of absent units, then its routes' cost: compared in that order. */
  bestAbsentWeight = Number.POSITIVE_INFINITY;
  bestCost = Number.POSITIVE_INFINITY;
  /** The iteration that found the best solution, and when (on the budget's clock; −∞ if construction did). */
  private bestIteration = -1;
  bestAt = Number.NEGATIVE_INFINITY;
  /** The current solution's absent weight and routes' cost. */
  private currentWeight = Number.POSITIVE_INFINITY;
  private currentCost = Number.POSITIVE_INFINITY;
  /** How many iterations each unit has ended absent. */
  private readonly absences: Int32Array;

  constructor(R: Routes, seed: number, parameters: SearchParameters) {
    const m = R.m;
    this.m = m;
    this.R = R;
    this.rng = new Random(seed);
    this.p = parameters;
    const K = m.vehicleCount;
    const U = m.unitCount;
    this.absent = new Int32Array(U);
    this.absentBackup = new Int32Array(U);
    this.bestAbsent = new Int32Array(U);
    let breaks = 0;
    for (const b of m.vBreaks) breaks += b.length;
    this.pendingBreaks = new Int32Array(breaks);
    this.removable = new Uint8Array(m.nodeCount);
    for (let node = 0; node < m.nodeCount; node++) {
      const u = m.unitOf[node]!;
      this.removable[node] = (u >= 0 && m.unitFixedOn[u]! < 0) || R.isBreak[node] ? 1 : 0;
    }
    this.gone = new Uint8Array(m.nodeCount);
    this.touched = new Int32Array(K).fill(-1);
    this.touchedList = new Int32Array(K);
    this.backupSeq = R.seq.map((s) => new Int32Array(s.length));
    this.backupLen = new Int32Array(K);
    this.bestSeq = R.seq.map((s) => new Int32Array(s.length));
    this.bestLen = new Int32Array(K);
    this.removal = new StringRemoval(R, this.rng, parameters, this.removable);
    this.keys = new Float64Array(U);
    this.absences = new Int32Array(U);
    this.runMax = new Float64Array(m.dims);
  }

  /** The first solution: the free units by regret insertion into the routes as seeded (fixed steps, breaks). */
  construct(): void {
    const m = this.m;
    const free: number[] = [];
    for (let u = 0; u < m.unitCount; u++) if (m.unitFixedOn[u]! < 0) free.push(u);
    for (const u of constructByRegret(this.R, free)) this.absent[this.absentCount++] = u;
    this.currentCost = this.R.totalCost();
    this.currentWeight = this.absentWeight();
    this.saveBest();
  }

  /** Runs iterations until the budget is spent; leaves the best solution in the routes. */
  run(budget: SearchBudget): void {
    const started = budget.clock();
    const { startTemperature, finalTemperature } = this.p;
    const t0 = startTemperature * this.m.meanNearestCost;
    const ratio = finalTemperature / startTemperature;
    const byIterations = Number.isFinite(budget.maxIterations);
    const byTime = Number.isFinite(budget.timeLimitMs);
    // With both budgets the annealing follows whichever is further spent.
    let timeProgress = 0;
    for (;;) {
      if (this.iterations >= budget.maxIterations) break;
      if (byTime && (this.iterations & 15) === 0) {
        const elapsed = budget.clock() - started;
        if (elapsed >= budget.timeLimitMs) break;
        timeProgress = elapsed / budget.timeLimitMs;
      }
      const progress = byIterations
        ? Math.max(this.iterations / budget.maxIterations, timeProgress)
        : timeProgress;
      const temperature = t0 * ratio ** progress;
      this.iterate(temperature);
      if (this.bestIteration === this.iterations) this.bestAt = budget.clock();
      for (let i = 0; i < this.absentCount; i++) this.absences[this.absent[i]!]!++;
      this.iterations++;
    }
    this.loadBest();
  }

  private iterate(temperature: number): void {
    this.epoch++;
    this.touchedCount = 0;
    this.absentBackup.set(this.absent.subarray(0, this.absentCount));
    this.absentBackupCount = this.absentCount;
    let ok = this.ruin();
    if (ok) ok = this.recreate();
    if (ok && this.accepts(temperature)) {
      this.currentCost = this.R.totalCost();
      this.currentWeight = this.absentWeight();
      if (
        this.currentWeight < this.bestAbsentWeight ||
        (this.currentWeight === this.bestAbsentWeight && this.currentCost < this.bestCost - 1e-9)
      )
        this.saveBest();
      return;
    }
    this.undo();
  }

  /**
   * Serving more comes first: a candidate leaving out more weight is refused, one leaving out less
   * is taken. Between candidates leaving out as much, the one whose absent tasks have been absent
   * less often is taken (SISR's absence counters: the hard tasks get served, the easy ones wait);
   * for the same absent tasks, the cost decides under annealing.
   */
  private accepts(temperature: number): boolean {
    const weight = this.absentWeight();
    if (weight !== this.currentWeight) return weight < this.currentWeight;
    if (weight > 0) {
      let before = 0;
      let after = 0;
      for (let i = 0; i < this.absentBackupCount; i++) before += this.absences[this.absentBackup[i]!]!;
      for (let i = 0; i < this.absentCount; i++) after += this.absences[this.absent[i]!]!;
      if (after !== before) return after < before;
    }
    const threshold = this.currentCost - temperature * Math.log(this.rng.next() || Number.MIN_VALUE);
    return this.R.totalCost() < threshold;
  }

  private absentWeight(): number {
    let total = 0;
    for (let i = 0; i < this.absentCount; i++) total += this.m.unitWeight[this.absent[i]!]!;
    return total;
  }

  private touch(r: number): void {
    if (this.touched[r] === this.epoch) return;
    this.touched[r] = this.epoch;
    this.touchedList[this.touchedCount++] = r;
    const n = this.R.len[r]!;
    this.backupSeq[r]!.set(this.R.seq[r]!.subarray(0, n));
    this.backupLen[r] = n;
  }

  private undo(): void {
    for (let i = 0; i < this.touchedCount; i++) this.R.release(this.touchedList[i]!);
    for (let i = 0; i < this.touchedCount; i++) {
      const r = this.touchedList[i]!;
      this.R.restore(r, this.backupSeq[r]!, this.backupLen[r]!);
    }
    this.absent.set(this.absentBackup.subarray(0, this.absentBackupCount));
    this.absentCount = this.absentBackupCount;
    this.pendingCount = 0;
  }

  private saveBest(): void {
    const R = this.R;
    for (let r = 0; r < this.m.vehicleCount; r++) {
      const n = R.len[r]!;
      this.bestSeq[r]!.set(R.seq[r]!.subarray(0, n));
      this.bestLen[r] = n;
    }
    this.bestAbsent.set(this.absent.subarray(0, this.absentCount));
    this.bestAbsentCount = this.absentCount;
    this.bestAbsentWeight = this.currentWeight;
    this.bestCost = this.currentCost;
    this.bestIteration = this.iterations;
  }

  private loadBest(): void {
    for (let r = 0; r < this.m.vehicleCount; r++) this.R.release(r);
    for (let r = 0; r < this.m.vehicleCount; r++) this.R.restore(r, this.bestSeq[r]!, this.bestLen[r]!);
    this.absent.set(this.bestAbsent.subarray(0, this.bestAbsentCount));
    this.absentCount = this.bestAbsentCount;
    this.currentCost = this.bestCost;
    this.currentWeight = this.bestAbsentWeight;
  }

  /** The units left out of the best solution. */
  absentUnits(): number[] {
    return Array.from(this.absent.subarray(0, this.absentCount));
  }

  // ---- ruin -------------------------------------------------------------------------------

  /** Removes strings from routes near a random stop; false when a route it left is infeasible. */
  private ruin(): boolean {
    const R = this.R;
    this.removal.select(this.epoch, this.touchRoute, this.removeNode);
    for (let i = 0; i < this.touchedCount; i++) {
      const r = this.touchedList[i]!;
      R.compact(r, this.gone);
      R.rebuild(r);
    }
    this.gone.fill(0);
    for (let i = 0; i < this.touchedCount; i++) if (!R.feasible[this.touchedList[i]!]) return false;
    return true;
  }

  private readonly touchRoute = (r: number): void => this.touch(r);

  /** Flags a node's unit (both ends of a shipment) or break for removal and lists it absent. */
  private readonly removeNode = (node: number): void => {
    if (this.gone[node]) return;
    const m = this.m;
    if (this.R.isBreak[node]) {
      this.gone[node] = 1;
      this.pendingBreaks[this.pendingCount++] = node;
      return;
    }
    const u = m.unitOf[node]!;
    this.gone[m.unitFirst[u]!] = 1;
    const second = m.unitSecond[u]!;
    if (second >= 0) this.gone[second] = 1;
    this.absent[this.absentCount++] = u;
  };

  // ---- recreate ---------------------------------------------------------------------------

  /** Puts back the breaks, then every absent unit where it costs least; false if a break found no place. */
  private recreate(): boolean {
    const m = this.m;
    const R = this.R;
    for (let i = 0; i < this.pendingCount; i++) {
      const b = this.pendingBreaks[i]!;
      const r = m.ownerOf[b]!;
      const pos = placeBreak(R, r, b);
      if (pos < 0) {
        this.pendingCount = 0;
        return false;
      }
      this.touch(r);
      R.insertAt(r, pos, b);
      R.rebuild(r);
    }
    this.pendingCount = 0;
    this.sortAbsent();
    const K = m.vehicleCount;
    const blink = this.p.blinkRate;
    const best = this.best;
    let kept = 0;
    const count = this.absentCount;
    for (let i = 0; i < count; i++) {
      const u = this.absent[i]!;
      best.cost = Number.POSITIVE_INFINITY;
      best.route = -1;
      const first = m.unitFirst[u]!;
      const second = m.unitSecond[u]!;
      for (let r = 0; r < K; r++) {
        if (!m.eligible[u * K + r]) continue;
        if (second < 0) placeJob(R, r, first, this.rng, blink, best);
        else placeShipment(R, r, first, second, this.runMax, this.rng, blink, best);
      }
      if (best.route < 0) {
        this.absent[kept++] = u;
        continue;
      }
      const r = best.route;
      this.touch(r);
      R.insertAt(r, best.pos, first);
      if (second >= 0) R.insertAt(r, best.pos2, second);
      R.rebuild(r);
    }
    this.absentCount = kept;
    return true;
  }

  /**
   * Orders the absent units: those already absent before this iteration first, the most often
   * absent first (SISR's absence counters), then those the ruin removed, by one of SISR's rules
   * drawn by weight; ties at random.
   */
  private sortAbsent(): void {
    const m = this.m;
    const rng = this.rng;
    const w = this.p.orderWeights;
    let pick = rng.next() * (w[0] + w[1] + w[2] + w[3]);
    let rule = 0;
    while (rule < 3 && pick >= w[rule]!) pick -= w[rule++]!;
    const keys = this.keys;
    const a = this.absent;
    const n = this.absentCount;
    const old = this.absentBackupCount;
    for (let i = 0; i < n; i++) {
      const u = a[i]!;
      const jitter = rng.next();
      keys[u] =
        i < old
          ? -this.absences[u]! + jitter
          : rule === 0
            ? jitter
            : rule === 1
              ? -m.unitSize[u]! * 1e6 + jitter
              : rule === 2
                ? -m.unitDepotCost[u]! * 1e3 + jitter
                : m.unitDepotCost[u]! * 1e3 + jitter;
    }
    this.insertionSort(0, old);
    this.insertionSort(old, n);
  }

  private insertionSort(from: number, to: number): void {
    const a = this.absent;
    const keys = this.keys;
    for (let i = from + 1; i < to; i++) {
      const u = a[i]!;
      const k = keys[u]!;
      let j = i - 1;
      while (j >= from && keys[a[j]!]! > k) {
        a[j + 1] = a[j]!;
        j--;
      }
      a[j + 1] = u;
    }
  }
}
