import type { OutboxEvent } from '../../events/outbox.ts';

export const PICKUP_STATUSES = ['planned', 'collected', 'partially_collected', 'missed'] as const;
export type PickupStatus = (typeof PICKUP_STATUSES)[number];

export interface PickupWindow {
  /** HH:MM, Europe/Paris. */
  start: string;
  end: string;
}

/** A pickup as stored, with the orders it holds (SPEC §10). */
export interface Pickup {
  id: string;
  brandId: string;
  pickupAddress: string;
  /** YYYY-MM-DD, a business day in Paris. */
  date: string;
  window: PickupWindow;
  status: PickupStatus;
  requestedAt: Date | null;
  closedAt: Date | null;
  /**
   * Tracking refs, oldest order first: while planned, the orders now in it (not cancelled); once
   * closed, those it collected and those it missed, as the closing found them.
   */
  orderRefs: string[];
  missingRefs: string[];
}

/** One parcel's line on the manifest. */
export interface ManifestParcel {
  trackingRef: string;
  reference: string | null;
  deliveryPostcode: string | null;
  deliveryCity: string | null;
  unitWeightGrams: number;
  quantity: number;
}

/** An order of a pickup as the closing sees it. */
export interface PickupOrder {
  id: number;
  trackingRef: string;
  status: string;
}

export interface PickupStore {
  /** The pickup (`brandId` null only for the operator), or null. */
  find(id: string, brandId: string | null): Promise<Pickup | null>;
  /**
   * The brand's pickups on `date`, or from `from` on when no date is given (by day, then address);
   * a planned pickup with no order and not asked for is left out (a day's first order may have
   * created it and then been cancelled).
   */
  list(brandId: string | null, query: { date?: string; from?: string; limit: number }): Promise<Pickup[]>;
  /** Creates or updates the asked-for pickup (its window, requested_at); null if it is closed. */
  request(pickup: {
    id: string;
    brandId: string;
    pickupAddress: string;
    date: string;
    window: PickupWindow;
    at: Date;
  }): Promise<Pickup | null>;
  /** The brand's parcels of these tracking refs for a manifest, in the order given. */
  manifestParcels(brandId: string, refs: string[]): Promise<ManifestParcel[]>;
  /** The orders in the pickup (not cancelled), with their status, locking nothing. */
  orders(id: string): Promise<PickupOrder[]>;
  /**
   * Closes a planned pickup (its row locked by the change): its status and what it found; the orders
   * still pending among `missing` move to `next` (whose row is created if needed), and `event` is
   * written with the change. False when it was no longer planned.
   */
  close(change: {
    id: string;
    status: Exclude<PickupStatus, 'planned'>;
    at: Date;
    collectedRefs: string[];
    missingRefs: string[];
    next: { id: string; date: string };
    event: OutboxEvent | null;
  }): Promise<boolean>;
}
