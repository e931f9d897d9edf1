import type { OutboxEvent } from '../../events/outbox.ts';
import type { VehicleKind } from '../fleet/fleet.ts';
import type { GeoPoint } from '../places/location.ts';
import type { ScheduledStop } from './schedule.ts';

/** What an estimate of a round reads (order_arrivals, scans, round_stops, courier_positions). */
export interface RoundFacts {
  roundId: string;
  date: string;
  courierId: string | null;
  /** The round's last applied loading scan; null: not left yet (no estimate). */
  departure: Date | null;
  /** The vehicle the optimiser planned it for (its kind: how it moves); null: by sort code or by hand. */
  vehicleKind: VehicleKind | null;
  /** Where that vehicle's round starts: its hub; null when the round has no vehicle. */
  hub: GeoPoint | null;
  /** Its delivery stops in the round's order; `brandId` for the events. */
  stops: Array<ScheduledStop & { brandId: string; trackingRef: string; finished: boolean }>;
  /** The courier's last position shared on this round after the departure. */
  position: { point: GeoPoint; at: Date } | null;
}

/** An order's arrival as stored (migration 0054). */
export interface StoredArrival {
  orderId: string;
  roundId: string;
  eta: Date;
  windowStart: Date;
  windowEnd: Date;
  stopsBefore: number;
  announcedAt: Date;
  estimatedAt: Date;
}

/** A courier position as the phone sends it, checked. */
interface CourierPosition {
  courierId: string;
  roundId: string;
  point: GeoPoint;
  accuracyM: number | null;
  at: Date;
}

export interface ArrivalStore {
  roundFacts(roundId: string): Promise<RoundFacts | null>;
  /** The rounds of `day` (Paris) that hold these orders (row ids) as delivery stops. */
  roundsOfOrders(orderIds: readonly string[], day: string): Promise<string[]>;
  /** The estimated arrivals of these orders (tracking refs) on their rounds of `day` (Paris). */
  etasOfRefs(trackingRefs: readonly string[], day: string): Promise<Map<string, Date>>;
  /** The stored arrivals of these orders. */
  find(orderIds: readonly string[]): Promise<Map<string, StoredArrival>>;
  /**
   * Writes the arrivals (insert or replace) and, in the same statement, the events of those whose
   * window moved (`key`: the order's id).
   */
  save(
    arrivals: readonly StoredArrival[],
    events: ReadonlyArray<{ key: string; event: OutboxEvent }>,
  ): Promise<void>;
  /** Since when the courier shares their position (null: not sharing). */
  sharingSince(courierId: string): Promise<Date | null>;
  setSharing(courierId: string, since: Date | null): Promise<void>;
  /**
   * The courier's round in progress on `day`: loaded (a loading scan on it) with a delivery still
   * to do. Null when none.
   */
  roundInProgress(courierId: string, day: string): Promise<string | null>;
  /** The time of the courier's last stored position, null when none. */
  lastPositionAt(courierId: string): Promise<Date | null>;
  /** Stores it; false when one of the same time is already there. */
  recordPosition(position: CourierPosition): Promise<boolean>;
  /** Drops the positions recorded before `before`; returns how many (at most `limit`). */
  purgePositions(before: Date, limit: number): Promise<number>;
  /** Drops every position of the courier (they stopped sharing). */
  forgetPositions(courierId: string): Promise<number>;
}
