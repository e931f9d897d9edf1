/**
 * Round optimisation (issue 37): the problem a day's planning hands to an optimiser and the answer it
 * gets back, shaped like VROOM's API (jobs, shipments, vehicles with capacities, time windows,
 * skills and breaks, custom matrices; routes of steps and the unassigned tasks) so that the
 * in-process solver and a VROOM adapter are interchangeable behind `RoundOptimiser`. Times are
 * seconds on the problem's own clock (relative to the day or epoch seconds, as long as one is used
 * throughout), distances metres; a time window is `[start, end]`, both inclusive, and bounds when
 * service may start. Locations are indices into the matrices.
 */

export type TimeWindow = readonly [start: number, end: number];

/** Square matrices over the problem's locations, row = from, column = to. */
export interface RoutingMatrices {
  /** Travel times in seconds: every timing check uses them. */
  durations: readonly (readonly number[])[];
  /** Metres, reported on each step and route; zero when absent (a `perKm` cost needs them). */
  distances?: readonly (readonly number[])[];
  /** What the search minimises instead of the vehicles' `costs` (VROOM's custom cost matrix). */
  costs?: readonly (readonly number[])[];
}

/** What a task asks of the vehicle serving it, shared by jobs and shipments. */
interface TaskRequirements {
  /** Every skill a vehicle must have to serve it (e.g. `cargo-bike`, `refrigerated`). */
  skills?: readonly string[];
  /** 0–100: tasks of higher priority are the last left unassigned (default 0). */
  priority?: number;
  /** Pinned by the operator: only this vehicle may serve it; the solver picks the position. */
  vehicle?: string;
}

/** A place to visit once: service there, within one of its windows (several allowed, none = any time). */
export interface TaskPlace {
  location: number;
  /** Seconds spent there (default 0). */
  service?: number;
  timeWindows?: readonly TimeWindow[];
}

/**
 * A single stop. Its `delivery` amount is on board from the vehicle's start until this stop, its
 * `pickup` amount from this stop to the vehicle's end (VROOM's convention): a delivery from the hub,
 * a collection taken back to it.
 */
export interface RoutingJob extends TaskRequirements, TaskPlace {
  /** Unique among jobs and shipments. */
  id: string;
  /** Amounts per capacity dimension, e.g. `[parcels, grams]`. */
  delivery?: readonly number[];
  pickup?: readonly number[];
}

/** A pickup and its delivery, made by the same vehicle, the pickup first; `amount` rides between them. */
export interface RoutingShipment extends TaskRequirements {
  /** Unique among jobs and shipments. */
  id: string;
  pickup: TaskPlace;
  delivery: TaskPlace;
  amount?: readonly number[];
}

/** A break the vehicle must take when it is used, at the place of the stop before it, within a window. */
interface RoutingBreak {
  /** Unique within its vehicle. */
  id: string;
  timeWindows?: readonly TimeWindow[];
  service: number;
}

/** A task a vehicle is committed to: a job, or one end of a shipment. */
export interface TaskStep {
  type: 'job' | 'pickup' | 'delivery';
  /** The job's or the shipment's id. */
  id: string;
}

interface VehicleCosts {
  /** Counted once if the vehicle is used (default 0). */
  fixed?: number;
  /** Per hour of travel (default 3600: the cost is the travel time in seconds, as VROOM's). */
  perHour?: number;
  /** Per kilometre of travel (default 0; needs `distances`). */
  perKm?: number;
}

export interface RoutingVehicle {
  id: string;
  /** Which entry of `matrices` it travels by (default `car`, as VROOM's). */
  profile?: string;
  /** Where it starts and ends its route; at least one of the two (a missing one is wherever the route begins or ends). */
  start?: number;
  end?: number;
  /** Per dimension, matching the tasks' amounts; none = unbounded. */
  capacity?: readonly number[];
  /** The shift: leaves its start no earlier than its start, reaches its end no later than its end. */
  timeWindow?: TimeWindow;
  skills?: readonly string[];
  breaks?: readonly RoutingBreak[];
  costs?: VehicleCosts;
  /** At most this many tasks (a shipment counts two). */
  maxTasks?: number;
  /**
   * Re-planning a round already started: these tasks stay on this vehicle, in this order, never
   * moved or dropped (others may be placed between them unless `locked`). Its start and window
   * describe where and when the vehicle is now.
   */
  fixedSteps?: readonly TaskStep[];
  /** Takes nothing but its `fixedSteps` (the solver only times them). */
  locked?: boolean;
}

export interface RoutingProblem {
  /** Per profile (`car`, `cargo-bike`…), as VROOM's `matrices`; every vehicle's profile must be here. */
  matrices: Readonly<Record<string, RoutingMatrices>>;
  jobs?: readonly RoutingJob[];
  shipments?: readonly RoutingShipment[];
  vehicles: readonly RoutingVehicle[];
}

export interface SolveOptions {
  /** Same seed, same problem and an iteration budget: the same answer, run after run (default 1). */
  seed?: number;
  /** Stops searching after this long (default 5,000 ms when no iteration budget is given). */
  timeLimitMs?: number;
  /** Stops searching after this many ruin-and-recreate iterations (deterministic). */
  maxIterations?: number;
}

export type StepType = 'start' | 'job' | 'pickup' | 'delivery' | 'break' | 'end';

export interface RouteStep {
  type: StepType;
  /** The task's (job's, shipment's, break's) id; absent on start and end. */
  id?: string;
  /** Absent on a break (taken where the vehicle is) and on an open start or end. */
  location?: number;
  arrival: number;
  waitingTime: number;
  service: number;
  departure: number;
  /** Travel time and distance from the route's start up to arriving here. */
  duration: number;
  distance: number;
  /** On board after this step, per dimension. */
  load: number[];
}

export interface PlannedRoute {
  vehicle: string;
  steps: RouteStep[];
  /** The objective's share of this route (travel cost plus the vehicle's fixed cost). */
  cost: number;
  /** Travel time in seconds, distance in metres, service and waiting time in seconds. */
  duration: number;
  distance: number;
  service: number;
  waitingTime: number;
}

/**
 * Why a task is left out: no vehicle at all (or none it may ride: a pin to a locked vehicle); no
 * vehicle with its skills; too large for every vehicle, or every route full; its window cannot be
 * met (alone, or beside the stops that fill the routes at that time); the shifts (ending too soon,
 * or full).
 */
export type UnassignedReason = 'no_vehicle' | 'skills' | 'capacity' | 'time_window' | 'shift';

export interface UnassignedTask {
  /** The job's or the shipment's id. */
  id: string;
  type: 'job' | 'shipment';
  reason: UnassignedReason;
}

export interface RoutingSolution {
  routes: PlannedRoute[];
  unassigned: UnassignedTask[];
  summary: {
    cost: number;
    routes: number;
    unassigned: number;
    duration: number;
    distance: number;
    service: number;
    waitingTime: number;
  };
  /**
   * How the answer was found: the engine, and for the in-process solver its search (iterations, the
   * milliseconds it took and those after which the answer was found, the seed).
   */
  search: { engine: string; iterations?: number; millis?: number; bestMillis?: number; seed?: number };
}

/**
 * Plans routes for a problem. The in-process solver is the default and the fallback; an adapter
 * for VROOM's HTTP API implements the same contract. A malformed problem is an `invalid_request`
 * AppError naming the field (`vehicles[2].timeWindow`…); a task that cannot be placed is not an
 * error but an entry of `unassigned` with its reason.
 */
export interface RoundOptimiser {
  readonly engine: string;
  solve(problem: RoutingProblem, options?: SolveOptions): Promise<RoutingSolution>;
}

/**
 * What the round planning tells the metrics (infra/metrics): each time an outside optimiser (VROOM)
 * gave no usable answer and the in-process solver planned the day instead, with the reason
 * (`timeout`, `unreachable`, `HTTP 503 code 1`, `malformed answer`…).
 */
export interface RoutingObserver {
  optimiserFallback(reason: string): void;
}
