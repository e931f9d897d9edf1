/**
 * The problem as the search reads it: every stop, break, start and end is a node numbered once,
 * described by typed arrays (location, service, windows, loads), and the matrices are flat arrays
 * with one extra "nowhere" location (a zero row and column) for an open start or end, so the inner
 * loops index without branching and allocate nothing.
 */
import type { RoutingProblem } from './ports.ts';

export const JOB = 0;
export const PICKUP = 1;
export const DELIVERY = 2;
export const BREAK = 3;
export const START = 4;
export const END = 5;

/** What a node refers to in the problem, for the answer. */
export interface NodeSource {
  id: string;
  /** Index of the vehicle (breaks, starts, ends) or of the job / shipment. */
  index: number;
}

export interface Model {
  readonly problem: RoutingProblem;
  /** Locations in the matrices; `nowhere` (= that count) is the open start or end. */
  readonly nowhere: number;
  readonly stride: number;
  readonly dims: number;
  readonly nodeCount: number;
  readonly loc: Int32Array;
  readonly kind: Uint8Array;
  readonly service: Float64Array;
  /** Windows of node n: indices twFirst[n] ≤ w < twEnd[n] of twOpen / twClose, sorted, disjoint. */
  readonly twFirst: Int32Array;
  readonly twEnd: Int32Array;
  readonly twOpen: Float64Array;
  readonly twClose: Float64Array;
  /** Per node and dimension: on board from the start until the node (a job's delivery)… */
  readonly startLoad: Float64Array;
  /** …and the change of the load at the node (pickup − delivery). */
  readonly delta: Float64Array;
  /** The unit (job or shipment) of a task node, −1 for breaks, starts and ends. */
  readonly unitOf: Int32Array;
  /** The vehicle a break, start or end belongs to, −1 for tasks. */
  readonly ownerOf: Int32Array;
  readonly source: NodeSource[];

  readonly unitCount: number;
  readonly jobCount: number;
  /** A job's node, or a shipment's pickup node. */
  readonly unitFirst: Int32Array;
  /** A shipment's delivery node, −1 for a job. */
  readonly unitSecond: Int32Array;
  /**
   * What leaving the unit out weighs, compared before any cost: 1, plus (units + 1) per priority
   * point, so that one higher-priority task outweighs any number of lower ones.
   */
  readonly unitWeight: Float64Array;
  /** The vehicle the unit is fixed on (never moved), −1 when free. */
  readonly unitFixedOn: Int32Array;
  /** eligible[u * vehicleCount + v]: skills, pin, lock, capacity and the unit alone within the shift. */
  readonly eligible: Uint8Array;
  /** Sort keys of the recreate step: size (share of the capacity), cost from the depot. */
  readonly unitSize: Float64Array;
  readonly unitDepotCost: Float64Array;

  readonly vehicleCount: number;
  readonly vStart: Int32Array;
  readonly vEnd: Int32Array;
  /** Per vehicle and dimension, Infinity when unbounded. */
  readonly vCapacity: Float64Array;
  readonly vFixedCost: Float64Array;
  readonly vMaxTasks: Float64Array;
  /** Flat (nowhere + 1)² matrices per vehicle (shared between vehicles of one profile and costs). */
  readonly vDurations: Float64Array[];
  readonly vDistances: Float64Array[];
  readonly vCosts: Float64Array[];
  readonly vBreaks: Int32Array[];
  /** The fixed steps' nodes, in their order. */
  readonly vFixed: Int32Array[];
  readonly vLocked: Uint8Array;

  /** Task nodes by closeness (symmetrised cost), `neighbourCount` per task node, for the ruin step. */
  readonly neighbours: Int32Array;
  readonly neighbourCount: number;
  /** Task nodes in node order (jobs, then shipments' pickups and deliveries). */
  readonly taskNodes: Int32Array;
  /** Mean cost from a task to its nearest other task: the unit of the annealing's temperatures. */
  readonly meanNearestCost: number;
}

/** First time service can start at `node` when arriving at `arrival`; Infinity when every window has closed. */
export function firstStart(m: Model, node: number, arrival: number): number {
  const end = m.twEnd[node]!;
  for (let w = m.twFirst[node]!; w < end; w++) {
    if (arrival <= m.twClose[w]!) {
      const open = m.twOpen[w]!;
      return arrival < open ? open : arrival;
    }
  }
  return Number.POSITIVE_INFINITY;
}

/** Latest arrival at `node` from which service can start no later than `limit`; −Infinity if none. */
export function latestArrival(m: Model, node: number, limit: number): number {
  for (let w = m.twEnd[node]! - 1; w >= m.twFirst[node]!; w--) {
    if (m.twOpen[w]! <= limit) {
      const close = m.twClose[w]!;
      return close < limit ? close : limit;
    }
  }
  return Number.NEGATIVE_INFINITY;
}
