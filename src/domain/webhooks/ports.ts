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
  /** A fresh delivery of the same event to the same endpoint, due now (workers claim due deliveries). */
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

/** Everything one attempt needs, held by a lease (the claim's token) rather than an open transaction. */
export interface ClaimedDelivery {
  id: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date | null;
  /** Fences the outcome: it is recorded only while this claim still holds the delivery. */
  leaseToken: string;
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

/** What one attempt (or a delivery settled without one) writes. */
export interface AttemptRecord {
  deliveryId: string;
  leaseToken: string;
  /** Null when no request was made (the endpoint is no longer active). */
  attempt: { number: number; startedAt: Date; result: DeliveryAttemptResult } | null;
  outcome: Pick<DeliveryOutcome, 'status' | 'nextAttemptAt'>;
  attemptCount: number;
  lastStatus: number | null;
  lastError: string | null;
  at: Date;
}

/** A claim of due deliveries, endpoint by endpoint. */
export interface ClaimRequest {
  /** Due means next_attempt_at at or before this (the service's clock). */
  at: Date;
  /** How long the claim holds each delivery (the database's clock): past it, another worker may take it. */
  leaseMs: number;
  /** At most this many per endpoint… */
  perEndpoint: number;
  /** …except these, which have less room here (in flight already, or their circuit open: 0). */
  rooms: ReadonlyArray<{ endpointId: string; room: number }>;
  /** At most this many in all. */
  limit: number;
}

/**
 * The job side of webhooks: fan-out, and the deliveries as a queue of their own: claimed with a
 * lease in one short statement, sent with no transaction open, their outcomes recorded afterwards.
 */
export interface WebhookDeliveryStore {
  /**
   * One delivery per active endpoint of each event's brand subscribed to its type, in one
   * statement; with `takeWaiting`, also for up to that many events whose fan-out job is still
   * waiting, those jobs taken from the queue in the same statement (one statement instead of one
   * job each). A re-run finds the deliveries already there and creates nothing.
   */
  fanOut(
    eventIds: readonly string[],
    at: Date,
    options?: { takeWaiting?: number },
  ): Promise<Array<{ id: string; eventId: string }>>;
  /** Due deliveries, oldest first per endpoint, each under a fresh lease (SKIP LOCKED). */
  claim(request: ClaimRequest): Promise<ClaimedDelivery[]>;
  /**
   * One delivery whatever its state, under a fresh lease; 'busy' while another worker holds it
   * (its lease or a row lock), null when there is no such delivery.
   */
  claimOne(deliveryId: string, leaseMs: number): Promise<ClaimedDelivery | 'busy' | null>;
  /** Gives a claimed delivery back untouched (it ran early, or was already settled). */
  release(deliveryId: string, leaseToken: string): Promise<void>;
  /**
   * Records attempts and outcomes in one statement, each only if its lease is still the one it was
   * claimed with (else another worker has it now, and this late outcome is dropped: at least once).
   * Returns the ids recorded.
   */
  settle(records: readonly AttemptRecord[]): Promise<string[]>;
  /** Forgets leases past their time (their worker died): how many. Claims ignore them anyway. */
  expireLeases(): Promise<number>;
  /**
   * The endpoint's failure run: a success ends it, a failure starts it if none is running.
   * Writes only on a change, so a healthy endpoint's row is not rewritten by every delivery.
   */
  trackEndpointHealth(endpointId: string, ok: boolean, at: Date): Promise<void>;
  disableEndpoint(endpointId: string, reason: string, at: Date): Promise<void>;
  /** An API subscription whose receiver answered 410 Gone: deleted, as its brand could do. */
  deleteEndpoint(endpointId: string, reason: string, at: Date): Promise<void>;
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
