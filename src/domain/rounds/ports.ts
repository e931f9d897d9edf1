import type { PricingZone } from '../coverage/zones.ts';
import type { SortCodeRule } from '../labels/sort-codes.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { DeliveryLocation, GeoPoint } from '../places/location.ts';
import type { Round, RoundPlan, StopRef } from './round.ts';

/** An order to deliver on the day, as the planner sees it. */
interface DeliveryCandidateRow {
  orderId: string;
  postcode: string | null;
  zone: PricingZone | null;
  address: string;
}

/** A pickup planned on the day. */
interface PickupCandidateRow {
  pickupId: string;
  address: string;
}

/** What the optimiser planned of a stop, and the operator's pin. */
interface StopPlanFacts {
  pinned: boolean;
  plannedArrival: Date | null;
  legDistanceM: number | null;
}

/** The day's stops as the optimiser needs them: where, how much, when. */
interface PlanningStops {
  deliveries: {
    orderId: string;
    trackingRef: string;
    postcode: string | null;
    /** The order's delivery location (null: none; its postcode's centre is used). */
    point: GeoPoint | null;
    parcels: number;
    grams: number;
  }[];
  /**
   * Same-day parcels still at the brand: `express` orders due on the day (or before), `pending`,
   * collected by one of the day's planned pickups. The pickups' `parcels` and `grams` leave them out:
   * they go from the brand to the recipient, not to the hub.
   */
  sameDay: {
    orderId: string;
    trackingRef: string;
    postcode: string | null;
    point: GeoPoint | null;
    parcels: number;
    grams: number;
    pickupId: string;
  }[];
  pickups: {
    pickupId: string;
    address: string;
    /** `HH:MM`, Paris time. */
    window: { start: string; end: string };
    parcels: number;
    grams: number;
  }[];
}

/** A stop with what the courier's app shows of it (decision 0006's Stop, before the sort code). */
export type StopDetail =
  | {
      roundId: string;
      position: number;
      plan: StopPlanFacts;
      kind: 'pickup';
      pickup: {
        id: string;
        brandName: string;
        pickupAddress: string;
        window: { start: string; end: string };
        status: string;
        parcels: string[];
      };
    }
  | {
      roundId: string;
      position: number;
      plan: StopPlanFacts;
      kind: 'delivery';
      order: {
        id: string;
        trackingRef: string;
        status: string;
        recipient: string | null;
        address: string | null;
        postcode: string | null;
        city: string | null;
        zone: PricingZone | null;
        phone: string | null;
        quantity: number;
        failedAttempts: number;
        /** Where the address is (SPEC §11): for the courier of the stop and the operator. */
        location: DeliveryLocation | null;
      };
    };

/** Rounds and their stops (`rounds`, `round_stops`, migration 0032). */
export interface RoundStore {
  /** Serialises the day's planning and edits (a transaction-scoped lock on the day). */
  lockDay(date: string): Promise<void>;
  roundsOfDay(date: string, courierId?: string): Promise<Round[]>;
  find(id: string): Promise<Round | null>;
  insert(round: Omit<Round, 'stops' | 'version' | 'plan'> & { plan?: RoundPlan }): Promise<void>;
  /** Any change adds one to the round's version. `plan`: what the optimiser planned of it (replaced whole). */
  update(
    id: string,
    changes: { courierId?: string | null; sortCodes?: string[]; plan?: RoundPlan },
  ): Promise<void>;
  /** Deletes a round and its stops (one not started: no scan names it). */
  remove(id: string): Promise<void>;
  /** The day's rounds a scan names (started: re-optimising leaves them whole). */
  startedRounds(date: string): Promise<Set<string>>;
  /** The day's deliveries and planned pickups, as the optimiser needs them (planningStops). */
  planningStops(date: string): Promise<PlanningStops>;
  /** The round's stops replaced by `stops`, positions 1..n (the day repeated so each is on one round a day). */
  replaceStops(id: string, date: string, stops: readonly StopRef[]): Promise<void>;
  /** Orders to deliver on `date`: `picked_up`, `in_transit` or `failed_attempt`, promised on or before it. */
  deliveriesDue(date: string): Promise<DeliveryCandidateRow[]>;
  /** The day's planned pickups. */
  pickupsDue(date: string): Promise<PickupCandidateRow[]>;
  /** Of `orderIds`, those now cancelled (re-planning drops them). */
  cancelledAmong(orderIds: readonly string[]): Promise<string[]>;
  sortCodes(): Promise<SortCodeRule[]>;
  /** Order row ids by tracking reference (unknown ones absent). */
  /** The orders of these references: their ids and statuses (a stop must still be to deliver). */
  ordersByRef(refs: readonly string[]): Promise<Map<string, { id: string; status: OrderStatus }>>;
  /** Of `pickupIds`, those that exist on `date`. */
  pickupsOnDate(pickupIds: readonly string[], date: string): Promise<Set<string>>;
  /** Which of the stops are on another round than `exceptRoundId` on `date`, with that round's name. */
  onOtherRounds(
    date: string,
    stops: readonly StopRef[],
    exceptRoundId: string | null,
  ): Promise<Map<string, string>>;
  stopDetails(roundIds: readonly string[]): Promise<StopDetail[]>;
  /**
   * Removes the order's stops not scanned yet on rounds from `from` on, except those of `keep`
   * (a recipient moved the day), the rounds' positions renumbered 1..n. Returns how many went.
   */
  removeUnscannedStops(orderId: number | string, days: { keep: string; from: string }): Promise<number>;
  /** The round an order is on, on `date` (the scans' `wrong_round` check). */
  roundOfOrder(orderId: string, date: string): Promise<{ roundId: string; courierId: string | null } | null>;
}
