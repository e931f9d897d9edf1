import type { PricingZone } from '../coverage/zones.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { GeoPoint } from '../places/location.ts';
import type { ServiceCode } from '../pricing/services.ts';
import type { DataLevel, RoundLeg } from './allocation.ts';
import type { VehicleKind } from './emission-factors.ts';

/**
 * The rounds an order went out on, with what the CO₂e needs of each: its delivery stops (orders,
 * parcels, zone, service), its vehicle kind and its own distance when stored. The adapter
 * (db/repositories/round-distances-repository.ts) reads the round's stored distance and vehicle
 * where the fleet's columns exist (`rounds.driven_distance_m` once finished, else the plan's
 * `rounds.planned_distance_m`; `rounds.vehicle_id` → `vehicles.kind`) and gives null otherwise; the
 * allocation then uses the default values.
 */
export interface RoundDistances {
  /** Oldest first; empty when the order was never on a round. */
  roundsOfOrder(orderId: string): Promise<RoundLeg[]>;
}

/** What is stored on the order (migration 0053). */
interface StoredEmission {
  grams: number;
  dataLevel: DataLevel;
  method: string;
  vehicle: VehicleKind;
  distanceM: number;
  at: Date;
}

/** An order whose figure a recompute sets again. */
export interface EmittingOrder {
  id: string;
  status: OrderStatus;
  zone: PricingZone | null;
  service: ServiceCode;
  /** When it was delivered or returned. */
  at: Date;
}

/** One line of a brand's monthly statement: a vehicle kind and data level's sums. */
export interface StatementRow {
  vehicle: string;
  dataLevel: DataLevel;
  orders: number;
  parcels: number;
  distanceM: number;
  grams: number;
}

/** One month of a brand's figures: the account area's list of statements. */
export interface StatementMonth {
  /** YYYY-MM, as a Paris wall clock reads the delivery or return. */
  period: string;
  orders: number;
  grams: number;
}

export interface EmissionStore {
  /** Delivered and returned orders of [start, end) by delivery time, after `afterId`, by id. */
  emittingOrders(start: Date, end: Date, afterId: string | null, limit: number): Promise<EmittingOrder[]>;
  /** Sets the order's figure again (its stored JSON with it). */
  record(orderId: string, emission: StoredEmission): Promise<void>;
  /** The brand's figures of [start, end) by vehicle kind and data level. */
  statement(brandId: string, start: Date, end: Date): Promise<StatementRow[]>;
  /** The brand's months with a figure, newest first, at most `limit`. */
  months(brandId: string, limit: number): Promise<StatementMonth[]>;
}

/** A brand's monthly GHG statement (SPEC §14). */
export interface EmissionStatement {
  period: string;
  rows: StatementRow[];
  totals: { orders: number; parcels: number; distanceM: number; grams: number };
  /** Each data level's share of the grams. */
  dataLevels: DataLevel[];
  method: string;
  methodText: string;
}

/** A finished round whose driven distance is not stored yet: its vehicle, hub and delivered stops. */
export interface FinishedRound {
  roundId: string;
  vehicle: VehicleKind;
  hub: GeoPoint;
  /** Its delivery stops with an outcome, in the order they got it (the order they were delivered). */
  stops: { position: number; orderId: string; point: GeoPoint | null; at: Date }[];
}

/** Where a round's driven distance is read from and stored (rounds, round_stops: migration 0055). */
export interface DrivenRounds {
  /**
   * Rounds of [since, until] (dates) with a vehicle and no driven distance, every delivery stop of
   * which has its outcome (delivered, failed attempt or returned that day; a cancelled stop is not
   * driven to), at most `limit`.
   */
  finishedWithoutDistance(since: string, until: string, limit: number): Promise<FinishedRound[]>;
  /**
   * Stores the driven distance and each stop's place and leg, once (false: already stored by
   * another run). `legs` name the stops driven to.
   */
  recordDriven(
    roundId: string,
    drivenM: number,
    legs: readonly { position: number; drivenPosition: number; legM: number }[],
    at: Date,
  ): Promise<boolean>;
  /** The round's delivered or returned orders (their figures are computed again with the driven distance). */
  emittingOrdersOf(roundId: string): Promise<EmittingOrder[]>;
}
