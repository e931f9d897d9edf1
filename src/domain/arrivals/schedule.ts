import type { GeoPoint } from '../places/location.ts';

/**
 * The arrival times of a round's deliveries (SPEC §11, docs/arrival-times.md), on plain values so
 * they are tested without a database nor a router: from where and when the courier last was known
 * to be, the travel times between consecutive stops in the round's order, and a service time at
 * each stop, stretched by the courier's pace so far.
 */

/** A delivery stop of the round, in the round's order. */
export interface ScheduledStop {
  orderId: string;
  /** The delivery point; null: unknown (no travel counted to it, its service time only). */
  point: GeoPoint | null;
  /** When its door event happened (delivered or failed), null while still to do. */
  doneAt: Date | null;
}

export interface RoundProgress {
  /** When the round left: its last loading scan. */
  departure: Date;
  /** Where rounds start (ARRIVAL_HUB); null: the first stop's arrival is the departure. */
  hub: GeoPoint | null;
  stops: readonly ScheduledStop[];
  /** The courier's last shared position after the departure (only with their consent). */
  position: { point: GeoPoint; at: Date } | null;
  /** Seconds spent at each stop (ARRIVAL_SERVICE_SECONDS). */
  serviceSeconds: number;
}

/** Seconds from one point to another (a TravelMatrix read by the caller). */
export type Leg = (from: GeoPoint, to: GeoPoint) => number;

export interface StopEstimate {
  orderId: string;
  eta: Date;
  /** Stops still to do before this one. */
  stopsBefore: number;
}

/** The pace is believed once a few stops are done, and never more than this far from the plan. */
const PACE_AFTER_STOPS = 3;
const PACE_MIN = 0.85;
const PACE_MAX = 1.3;
/** After this many stops done, the pace so far counts for half. */
const PACE_WEIGHT_STOPS = 10;

const seconds = (ms: number) => ms / 1000;
const plus = (at: Date, s: number) => new Date(at.getTime() + Math.round(s * 1000));

/** The plan as it stood at the departure: each stop's arrival, in seconds after it. */
function plannedOffsets(progress: RoundProgress, leg: Leg): number[] {
  const offsets: number[] = [];
  let t = 0;
  let at: GeoPoint | null = progress.hub;
  for (const stop of progress.stops) {
    if (at && stop.point) t += leg(at, stop.point);
    offsets.push(t);
    t += progress.serviceSeconds;
    at = stop.point ?? at;
  }
  return offsets;
}

/**
 * The estimate of every stop still to do. The courier is taken from their latest known fact: the
 * last door event (at that stop, at its time), or a shared position newer than it, or the hub at
 * the departure. The stops left follow in the round's order (a skipped one is still to come);
 * travel and service times are the plan's, stretched by the pace so far (time taken ÷ time
 * planned to the last door event) once three stops are done, believed in proportion to the stops
 * done and kept within 0.85–1.3.
 */
export function estimateArrivals(progress: RoundProgress, leg: Leg): StopEstimate[] {
  const planned = plannedOffsets(progress, leg);
  let anchorAt = progress.departure;
  let anchorPoint: GeoPoint | null = progress.hub;
  let lastDone = -1;
  let doneCount = 0;
  progress.stops.forEach((stop, i) => {
    if (!stop.doneAt) return;
    doneCount++;
    if (stop.doneAt.getTime() >= anchorAt.getTime()) {
      anchorAt = stop.doneAt;
      anchorPoint = stop.point ?? anchorPoint;
      lastDone = i;
    }
  });
  let pace = 1;
  if (doneCount >= PACE_AFTER_STOPS && lastDone >= 0) {
    const plannedSeconds = planned[lastDone]! + progress.serviceSeconds;
    const takenSeconds = seconds(anchorAt.getTime() - progress.departure.getTime());
    // Believed in proportion to the stops behind it: a slow first leg says little about the day.
    const weight = doneCount / (doneCount + PACE_WEIGHT_STOPS);
    if (plannedSeconds > 0)
      pace = Math.min(PACE_MAX, Math.max(PACE_MIN, 1 + (takenSeconds / plannedSeconds - 1) * weight));
  }
  if (progress.position && progress.position.at.getTime() > anchorAt.getTime()) {
    anchorAt = progress.position.at;
    anchorPoint = progress.position.point;
  }
  const estimates: StopEstimate[] = [];
  let t = anchorAt;
  let at: GeoPoint | null = anchorPoint;
  for (const stop of progress.stops) {
    if (stop.doneAt) continue;
    if (at && stop.point) t = plus(t, leg(at, stop.point) * pace);
    estimates.push({ orderId: stop.orderId, eta: t, stopsBefore: estimates.length });
    t = plus(t, progress.serviceSeconds * pace);
    at = stop.point ?? at;
  }
  return estimates;
}
