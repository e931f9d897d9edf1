/**
 * What the notifications part needs beyond the shared ports (ports.ts): its own records, the facts
 * about an order it decides from, and opt-outs by digest (an unsubscribe link carries the address's
 * digest, never the address).
 */
import type { Channel, NotificationStep, OptOutSource } from './ports.ts';

type NotificationStatus = 'sending' | 'sent' | 'delivered' | 'failed' | 'skipped';

/** Why nothing was sent (recorded in `detail` of a skipped notification). */
export type SkipReason = 'off' | 'no_address' | 'opted_out' | 'shop_notifies';

/** One row of recipient_notifications. */
export interface RecipientNotification {
  id: string;
  orderId: number;
  eventId: string | null;
  step: NotificationStep | 'code';
  channel: Channel;
  status: NotificationStatus;
  /** Why it was skipped or failed (the provider's or SMTP server's words), or why it is being retried. */
  detail: string | null;
  providerId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NotificationStore {
  /**
   * Records the decision for an event and channel, unless one is recorded already (the event's
   * job ran before): then the existing row, with `created: false`.
   */
  claim(row: {
    orderId: number;
    eventId: string;
    step: NotificationStep;
    channel: Channel;
    status: 'sending' | 'skipped';
    detail: string | null;
  }): Promise<{ notification: RecipientNotification; created: boolean }>;
  /** What became of a notification being sent. */
  settle(
    id: string,
    outcome: { status: 'sent' | 'failed' | 'skipped'; detail?: string | null; providerId?: string | null },
  ): Promise<void>;
  /** A notification still being sent failed for now and will be tried again: why, meanwhile. */
  retrying(id: string, detail: string): Promise<void>;
  /** An order's notifications, oldest first. */
  ofOrder(orderId: number): Promise<RecipientNotification[]>;
  /** One notification with its order's tracking reference, or null. */
  find(id: string): Promise<(RecipientNotification & { trackingRef: string }) | null>;
  /**
   * A failed notification taken back to `sending` for a resend; false when it was not failed any
   * more (another operator resent it meanwhile): one resend at a time, never two messages.
   */
  reopen(id: string, detail: string): Promise<boolean>;
}

/** An outbox event as the notifications read it. */
interface StoredEvent {
  id: string;
  type: string;
  brandId: string;
  data: unknown;
  at: Date;
}

/** The order as a notification needs it: where to write, and the link to its page. */
export interface NotifiedOrder {
  id: number;
  brandId: string;
  trackingRef: string;
  trackingToken: string;
  status: string;
  promisedDate: string | null;
  deliveryEmail: string | null;
  customerEmail: string | null;
  deliveryPhone: string | null;
  /** False for a test order: its messages go to the development outbox only. */
  livemode: boolean;
}

export interface NotificationFacts {
  event(id: string): Promise<StoredEvent | null>;
  order(trackingRef: string): Promise<NotifiedOrder | null>;
  /** The shop link the order came from (a shop platform, and whether the shop tells its customer), or null. */
  shopLink(
    trackingRef: string,
  ): Promise<{ platform: string; notifyCustomer: boolean; active: boolean } | null>;
  brandName(brandId: string): Promise<string>;
}

/** Opt-outs by the address's digest (address-key.ts), as an unsubscribe link knows it. */
export interface OptOutsByKey {
  isKeyOptedOut(channel: Channel, key: Buffer): Promise<boolean>;
  optOutKey(channel: Channel, key: Buffer, source: OptOutSource): Promise<void>;
}
