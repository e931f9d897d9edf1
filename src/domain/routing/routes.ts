/**
 * The routes being searched, one per vehicle, each a sequence of nodes from its start to its end
 * with what makes a change checkable in constant time (Savelsbergh's forward and backward times):
 * per position, the earliest departure given what comes before, the latest arrival that keeps what
 * comes after feasible, the load after the step and its running maxima from either end. A break
 * has no place of its own: it is taken where the previous stop was (`eloc`), so travel and cost skip
 * it. Rebuilding a route after a change is linear in its length; nothing here allocates after
 * construction.
 */
import { BREAK, firstStart, latestArrival, type Model } from './model.ts';

export class Routes {
  readonly m: Model;
  readonly seq: Int32Array[];
  readonly len: Int32Array;
  /** Effective location at each position (a break's is its predecessor's). */
  readonly eloc: Int32Array[];
  /** The next real location at or after each position (skipping breaks). */
  readonly nrl: Int32Array[];
  readonly dep: Float64Array[];
  readonly latest: Float64Array[];
  readonly load: Float64Array[];
  readonly pmax: Float64Array[];
  readonly smax: Float64Array[];
  /** Travel cost of each route, its fixed cost included when it serves a task; 0 when unused. */
  readonly cost: Float64Array;
  readonly tasks: Int32Array;
  readonly feasible: Uint8Array;
  readonly routeOf: Int32Array;
  readonly posOf: Int32Array;
  readonly isBreak: Uint8Array;

  constructor(m: Model) {
    this.m = m;
    const K = m.vehicleCount;
    // A route can hold every task, its breaks, its start and its end.
    const taskNodes = m.taskNodes.length;
    const capacity = (v: number) => taskNodes + m.vBreaks[v]!.length + 2;
    const per = <T>(make: (cap: number) => T) => Array.from({ length: K }, (_, v) => make(capacity(v)));
    this.seq = per((c) => new Int32Array(c));
    this.len = new Int32Array(K);
    this.eloc = per((c) => new Int32Array(c));
    this.nrl = per((c) => new Int32Array(c));
    this.dep = per((c) => new Float64Array(c));
    this.latest = per((c) => new Float64Array(c));
    this.load = per((c) => new Float64Array(c * m.dims));
    this.pmax = per((c) => new Float64Array(c * m.dims));
    this.smax = per((c) => new Float64Array(c * m.dims));
    this.cost = new Float64Array(K);
    this.tasks = new Int32Array(K);
    this.feasible = new Uint8Array(K);
    this.routeOf = new Int32Array(m.nodeCount).fill(-1);
    this.posOf = new Int32Array(m.nodeCount).fill(-1);
    this.isBreak = Uint8Array.from(m.kind, (k) => (k === BREAK ? 1 : 0));
    for (let v = 0; v < K; v++) {
      this.seq[v]![0] = m.vStart[v]!;
      this.seq[v]![1] = m.vEnd[v]!;
      this.len[v] = 2;
      this.rebuild(v);
    }
  }

  /** Puts `node` at position `pos` of route r (1 ≤ pos < len): call rebuild(r) before reading r again. */
  insertAt(r: number, pos: number, node: number): void {
    const s = this.seq[r]!;
    const n = this.len[r]!;
    s.copyWithin(pos + 1, pos, n);
    s[pos] = node;
    this.len[r] = n + 1;
    this.routeOf[node] = r;
  }

  /** Drops every node of route r flagged in `gone` (then rebuild). */
  compact(r: number, gone: Uint8Array): void {
    const s = this.seq[r]!;
    const n = this.len[r]!;
    let k = 0;
    for (let p = 0; p < n; p++) {
      const node = s[p]!;
      if (gone[node]) {
        this.routeOf[node] = -1;
        this.posOf[node] = -1;
      } else s[k++] = node;
    }
    this.len[r] = k;
  }

  /** Replaces route r's sequence (restoring a snapshot), then rebuilds it. Release every route restored first. */
  restore(r: number, from: Int32Array, length: number): void {
    const s = this.seq[r]!;
    for (let p = 0; p < length; p++) s[p] = from[p]!;
    this.len[r] = length;
    this.rebuild(r);
  }

  /** Marks route r's nodes as in no route: before restoring snapshots, whose nodes may have moved between routes. */
  release(r: number): void {
    const s = this.seq[r]!;
    for (let p = 0; p < this.len[r]!; p++) {
      this.routeOf[s[p]!] = -1;
      this.posOf[s[p]!] = -1;
    }
  }

  /** Recomputes locations, times, loads, cost and feasibility of route r. */
  rebuild(r: number): void {
    const m = this.m;
    const s = this.seq[r]!;
    const n = this.len[r]!;
    const eloc = this.eloc[r]!;
    const nrl = this.nrl[r]!;
    const dep = this.dep[r]!;
    const latest = this.latest[r]!;
    const isBreak = this.isBreak;
    const loc = m.loc;
    const S = m.stride;
    const dur = m.vDurations[r]!;
    const cst = m.vCosts[r]!;
    const service = m.service;
    let ok = 1;

    let prev = loc[s[0]!]!;
    eloc[0] = prev;
    let cost = 0;
    let tasks = 0;
    dep[0] = firstStart(m, s[0]!, Number.NEGATIVE_INFINITY);
    this.posOf[s[0]!] = 0;
    this.routeOf[s[0]!] = r;
    for (let p = 1; p < n; p++) {
      const node = s[p]!;
      this.posOf[node] = p;
      this.routeOf[node] = r;
      let arrival: number;
      if (isBreak[node]) {
        eloc[p] = prev;
        arrival = dep[p - 1]!;
      } else {
        const l = loc[node]!;
        cost += cst[prev * S + l]!;
        arrival = dep[p - 1]! + dur[prev * S + l]!;
        prev = l;
        eloc[p] = l;
        if (m.unitOf[node]! >= 0) tasks++;
      }
      const start = firstStart(m, node, arrival);
      if (start === Number.POSITIVE_INFINITY) ok = 0;
      dep[p] = start + service[node]!;
    }
    let next = loc[s[n - 1]!]!;
    nrl[n - 1] = next;
    latest[n - 1] = latestArrival(m, s[n - 1]!, Number.POSITIVE_INFINITY);
    for (let p = n - 2; p >= 0; p--) {
      const node = s[p]!;
      if (!isBreak[node]) next = loc[node]!;
      nrl[p] = next;
      const after = s[p + 1]!;
      const travel = isBreak[after] ? 0 : dur[eloc[p]! * S + loc[after]!]!;
      latest[p] = latestArrival(m, node, latest[p + 1]! - travel - service[node]!);
    }

    const D = m.dims;
    if (D > 0) {
      const load = this.load[r]!;
      const pmax = this.pmax[r]!;
      const smax = this.smax[r]!;
      const startLoad = m.startLoad;
      const delta = m.delta;
      for (let d = 0; d < D; d++) {
        let initial = 0;
        for (let p = 1; p < n - 1; p++) initial += startLoad[s[p]! * D + d]!;
        load[d] = initial;
        pmax[d] = initial;
        for (let p = 1; p < n; p++) {
          const x = load[(p - 1) * D + d]! + delta[s[p]! * D + d]!;
          load[p * D + d] = x;
          const before = pmax[(p - 1) * D + d]!;
          pmax[p * D + d] = x > before ? x : before;
        }
        smax[(n - 1) * D + d] = load[(n - 1) * D + d]!;
        for (let p = n - 2; p >= 0; p--) {
          const x = load[p * D + d]!;
          const after = smax[(p + 1) * D + d]!;
          smax[p * D + d] = x > after ? x : after;
        }
        if (pmax[(n - 1) * D + d]! > m.vCapacity[r * D + d]!) ok = 0;
      }
    }
    if (tasks > m.vMaxTasks[r]!) ok = 0;
    if (tasks === 0) cost = 0;
    else cost += m.vFixedCost[r]!;
    this.cost[r] = cost;
    this.tasks[r] = tasks;
    this.feasible[r] = ok;
  }

  /**
   * Whether the route stays feasible when something at location `from`, left at time `time`, is
   * followed by position k of route r (and the breaks from there on, taken at `from`).
   */
  tailFits(r: number, k: number, time: number, from: number): boolean {
    const m = this.m;
    const s = this.seq[r]!;
    let node = s[k]!;
    let t = time;
    while (this.isBreak[node]) {
      const start = firstStart(m, node, t);
      if (start === Number.POSITIVE_INFINITY) return false;
      t = start + m.service[node]!;
      node = s[++k]!;
    }
    return t + m.vDurations[r]![from * m.stride + m.loc[node]!]! <= this.latest[r]![k]!;
  }

  totalCost(): number {
    let total = 0;
    for (let r = 0; r < this.cost.length; r++) total += this.cost[r]!;
    return total;
  }
}
