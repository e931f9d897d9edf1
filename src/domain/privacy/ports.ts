import type { AuditStore } from '../audit/ports.ts';
import type { OrderStatus } from '../orders/state-machine.ts';
import type { OptOuts } from '../recipients/ports.ts';

/**
 * What the retention and the erasure need of storage (src/db/repositories/message-logs-repository.ts,
 * recipient-data-repository.ts). Every method is one short statement over a bounded batch, found
 * through an index: a purge or an erasure never holds a lock for long nor scans a hot table whole.
 */

/** Where a purge through a table in key order stopped. */
export interface PurgeStep {
  /** The last key looked at (the next batch starts after it); null when there was nothing. */
  last: number | null;
  /** True when the batch reached rows younger than the cutoff (or the end): nothing older follows. */
  done: boolean;
  /** Rows deleted. */
  deleted: number;
}

/** An events batch: the events deleted, with their deliveries and the deliveries' attempts. */
export interface EventsPurgeStep extends PurgeStep {
  deliveries: number;
  attempts: number;
}

/** The per-message logs (MESSAGE_LOG_RETENTION_DAYS, issue 36 item 31). */
export interface MessageLogStore {
  /**
   * The outbox's events after `after` (their sequence), at most `limit`, from the oldest: the run of
   * them written before `cutoff` goes with its webhook deliveries and their attempts, in one
   * statement, but for an event a delivery is still owed for (pending, failed or leased: kept until
   * settled) and one another transaction holds (skipped, not waited for).
   */
  purgeEvents(cutoff: Date, after: number, limit: number): Promise<EventsPurgeStep>;
  /** The shops' webhooks as received (connector_inbox), likewise in id order. */
  purgeInbox(cutoff: Date, after: number, limit: number): Promise<PurgeStep>;
  /** Recipient notifications written before `cutoff`, at most `limit`: how many went. */
  purgeNotifications(cutoff: Date, limit: number): Promise<number>;
  /**
   * What could not be synced with a shop, noted before `cutoff` (its message may quote the shop
   * order's address; a problem still there when the shop sends the order again is noted afresh).
   */
  purgeShopProblems(cutoff: Date, limit: number): Promise<number>;
  /** Brands' webhook requests answered (done or declined) before `cutoff`; open ones stay. */
  purgeWebhookRequests(cutoff: Date, limit: number): Promise<number>;
  /** Self-service codes drawn before `cutoff` (worthless once their day is over). */
  purgeCodes(cutoff: Date, limit: number): Promise<number>;
  /** SMS delivery reports held for a message that never claimed them. */
  purgeSmsReports(cutoff: Date, limit: number): Promise<number>;
}

/** An order whose recipient's data may be erased, with the proof files its attempts still hold. */
export interface ErasableOrder {
  id: number;
  trackingRef: string;
  brandId: string;
  status: OrderStatus;
  fileKeys: string[];
}

/** Whose data an erasure request names: an e-mail address (any case) or a number in E.164. */
export type RecipientMatch = { email: string } | { phone: string };

/** What one erasure removed, by place. */
export interface ErasedCounts {
  /** The orders anonymised (tracking refs). */
  orders: string[];
  /** Delivery attempts whose received_by, position and file keys were cleared. */
  attempts: number;
  notifications: number;
  codes: number;
  choices: number;
  /** Shops' problems about those orders (their messages may quote the address). */
  problems: number;
  /** With `onRequest` only (the retention comes after these are gone): shops' webhooks' payloads… */
  inboxPayloads: number;
  /** …and stored Idempotency-Key answers (24 h at most), which hold the order's JSON. */
  idempotencyKeys: number;
}

export interface RecipientDataStore {
  /** Ended orders last changed before `cutoff` that still hold their recipient's data, oldest first. */
  dueForAnonymisation(cutoff: Date, limit: number): Promise<ErasableOrder[]>;
  /** Every order still holding this recipient's data (e-mail: the customer's or the delivery one). */
  ordersOf(match: RecipientMatch): Promise<ErasableOrder[]>;
  /**
   * Erases the recipient's data of those orders that are still ended and not yet anonymised, in one
   * statement: the order's recipient fields, history notes and stored JSON (re-rendered), its
   * attempts' received_by and position and the file keys in `erasedKeys` (the files are deleted
   * first), its notifications, codes and choices, its shops' problems; with `onRequest`, also the
   * shops' payloads and stored Idempotency-Key answers naming it. `skipLocked`: an order another
   * transaction holds is left for the next run instead of waited for.
   */
  anonymise(
    orderIds: readonly number[],
    change: {
      at: Date;
      note: string;
      erasedKeys: readonly string[];
      onRequest: boolean;
      skipLocked: boolean;
    },
  ): Promise<ErasedCounts>;
}

/**
 * The stores an erasure writes to, in one transaction (the unit of work): the recipient's data, and
 * the audit trail's "who erased what" (the orders' references, never the data).
 */
export interface PrivacyStores {
  recipientData: RecipientDataStore;
  /** The opt-out list (digests), which an operator adds to on a person's request. */
  optOuts: Pick<OptOuts, 'optOut'>;
  audit: AuditStore;
}
