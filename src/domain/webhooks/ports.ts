import type { DeliveryStatus, WebhookDelivery } from './delivery.ts';
import type { DeliveryOutcome } from './delivery-outcome.ts';
import type { EndpointOrigin, EndpointStatus, WebhookEndpoint } from './endpoint.ts';
import type { WebhookEventType } from './events.ts';
import type { DeliveryAttemptResult } from './outbound.ts';

export interface NewEndpointRow {
  id: string;
  brandId: string;
  url: string;
  eventTypes: WebhookEventType[];
  secret: string;
  at: Date;
  origin?: EndpointOrigin;
  description?: string | null;
}

/** The operator's side of webhooks: endpoints, the delivery log and replays. */
export interface WebhookStore {
  insertEndpoint(row: NewEndpointRow): Promise<WebhookEndpoint>;
  subscribedTypes(brandId: string): Promise<string[]>;
  /** Bumped by a trigger whenever a subscription changes (migration 0007). */
  subscriptionsVersion(): Promise<number>;
  findEndpoint(id: string): Promise<WebhookEndpoint | null>;
  listEndpoints(brandId: string | null): Promise<WebhookEndpoint[]>;
  /** Enabling also forgets the failure run, so the 5-day rule starts afresh. */
  setEndpointStatus(
    id: string,
    change: {
      status: EndpointStatus;
      reason: string | null;
      at: Date;
    },
  ): Promise<WebhookEndpoint | null>;
  /** The current secret becomes the previous one, still signing until `previousExpiresAt`. */
  rotateSecret(
    id: string,
    change: {
      secret: string;
      previousExpiresAt: Date;
      at: Date;
    },
  ): Promise<WebhookEndpoint | null>;
  listDeliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  findDelivery(id: string): Promise<WebhookDelivery | null>;
  /** A fresh delivery of the same event to the same endpoint, enqueued in the same statement. */
  replayDelivery(id: string, at: Date): Promise<string | null>;
  /**
   * Fresh deliveries of every event since `since` to every active endpoint subscribed to it
   * (or only `endpointId`), including events an endpoint missed while it was disabled.
   */
  replaySince(since: Date, endpointId: string | null, at: Date): Promise<string[]>;
}

/** A brand's API subscriptions: its `api`-origin webhook endpoints, never another brand's. */
export interface WebhookSubscriptionStore {
  /**
   * Adds the subscription unless the brand already has `max` (deleted ones aside): null then.
   * The brand's subscriptions are serialised by a transaction-scoped advisory lock taken first, so
   * two concurrent requests cannot both take the last slot; the caller runs this in a transaction.
   */
  insertWithin(row: NewEndpointRow, max: number): Promise<WebhookEndpoint | null>;
  list(brandId: string): Promise<WebhookEndpoint[]>;
  /** The brand's subscription, deleted or not; null for any other id (another brand's included). */
  find(brandId: string, id: string): Promise<WebhookEndpoint | null>;
  /** Soft-deletes it (its deliveries keep referring to it); false when it was already deleted. */
  delete(brandId: string, id: string, at: Date): Promise<boolean>;
}

export type WebhookRequestStatus = 'open' | 'done' | 'declined';

/** A brand's request for a webhook endpoint, for the operator to set up with `dlv webhooks add`. */
export interface WebhookRequest {
  id: string;
  brandId: string;
  userId: string | null;
  /** Who asked (null once that person is deleted). */
  userEmail: string | null;
  url: string;
  eventTypes: WebhookEventType[];
  message: string;
  status: WebhookRequestStatus;
  createdAt: Date;
}

export interface WebhookRequestStore {
  insert(input: {
    id: string;
    brandId: string;
    userId: string;
    url: string;
    eventTypes: WebhookEventType[];
    message: string;
    at: Date;
  }): Promise<WebhookRequest>;
  listForBrand(brandId: string, limit: number): Promise<WebhookRequest[]>;
  /** Closes an open request; null when there is no open request with that id. */
  close(id: string, status: 'done' | 'declined'): Promise<WebhookRequest | null>;
  /** Marks every open request of the brand done (its subscription API was opened); how many. */
  closeOpenForBrand(brandId: string): Promise<number>;
  listOpen(): Promise<WebhookRequest[]>;
}

/** Everything one attempt needs, read under the delivery's row lock. */
export interface LockedDelivery {
  id: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  event: { id: string; type: WebhookEventType; data: Record<string, unknown>; createdAt: Date };
  endpoint: {
    id: string;
    url: string;
    origin: EndpointOrigin;
    status: EndpointStatus;
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: Date | null;
    firstFailureAt: Date | null;
  };
}

/** The job side of webhooks: fan-out, and one attempt's lock, log and follow-up. */
export interface WebhookDeliveryStore {
  /**
   * One delivery per active endpoint of the event's brand subscribed to its type, each with its
   * job, in one statement. A re-run finds the deliveries already there and enqueues nothing.
   */
  fanOut(eventId: string, at: Date): Promise<string[]>;
  /**
   * Locks the delivery for the length of the caller's transaction. SKIP LOCKED: null when it is
   * unknown or another worker is sending it right now (that worker records the outcome and
   * schedules what follows), so one delivery is never sent twice at once.
   */
  exists(deliveryId: string): Promise<boolean>;
  lock(deliveryId: string): Promise<LockedDelivery | null>;
  recordAttempt(attempt: {
    deliveryId: string;
    number: number;
    startedAt: Date;
    result: DeliveryAttemptResult;
  }): Promise<void>;
  /** Stores the outcome and, for a retry, enqueues the next attempt at its time. */
  settle(
    deliveryId: string,
    change: {
      outcome: Pick<DeliveryOutcome, 'status' | 'nextAttemptAt'>;
      attemptCount: number;
      lastStatus: number | null;
      lastError: string | null;
      at: Date;
    },
  ): Promise<void>;
  /** Re-enqueues a delivery whose job ran before its time (clocks differ between hosts). */
  requeue(deliveryId: string): Promise<void>;
  /**
   * The endpoint's failure run: a success ends it, a failure starts it if none is running.
   * Writes only on a change, so a healthy endpoint's row is not rewritten by every delivery.
   */
  trackEndpointHealth(endpointId: string, ok: boolean, at: Date): Promise<void>;
  disableEndpoint(endpointId: string, reason: string, at: Date): Promise<void>;
  /** An API subscription whose receiver answered 410 Gone: deleted, as its brand could do. */
  deleteEndpoint(endpointId: string, reason: string, at: Date): Promise<void>;
  /**
   * Deliveries owed an attempt for over `graceMs` whose job is gone or held by a worker that
   * died (locked long ago while the delivery row itself is not locked): enqueued again, so a
   * crash mid-send delays a delivery but never loses it.
   */
  requeueOrphans(now: Date, graceMs: number): Promise<string[]>;
}

/** Why an attempt failed, in a word fit for a metric label (never the URL or the brand). */
export type DeliveryFailureReason = 'timeout' | 'network' | 'http_4xx' | 'http_5xx' | 'http_other';

/**
 * Told the outcome of each delivery attempt (the metrics, wired in deps.ts). Called after the
 * attempt is recorded; must not throw nor wait.
 */
export interface DeliveryObserver {
  /** A receiver took it (2xx): `lagMs` from the event's creation to the end of this attempt. */
  delivered(lagMs: number): void;
  /** An attempt failed; `final`: no attempt follows (retries exhausted or the endpoint disabled). */
  failed(reason: DeliveryFailureReason, final: boolean): void;
}
