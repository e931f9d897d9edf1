import type { WebhookDelivery } from '../../domain/webhooks/delivery.ts';
import type { EndpointOrigin, EndpointStatus, WebhookEndpoint } from '../../domain/webhooks/endpoint.ts';
import type { WebhookEventType } from '../../domain/webhooks/events.ts';
import type { NewEndpointRow, WebhookStore } from '../../domain/webhooks/ports.ts';
import type { Queryable } from '../pool.ts';

export interface EndpointRow {
  id: string;
  brand_id: string;
  url: string;
  event_types: WebhookEventType[];
  origin: EndpointOrigin;
  description: string | null;
  status: EndpointStatus;
  deleted_at: Date | null;
  disabled_reason: string | null;
  disabled_at: Date | null;
  first_failure_at: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

// Secrets are left out on purpose: only creation and rotation return one, once.
export const ENDPOINT_COLUMNS = `id, brand_id, url, event_types, origin, description, status, deleted_at,
  disabled_reason, disabled_at, first_failure_at, previous_secret_expires_at, created_at, updated_at`;

export const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  brandId: r.brand_id,
  url: r.url,
  eventTypes: r.event_types,
  origin: r.origin,
  description: r.description,
  status: r.status,
  deletedAt: r.deleted_at,
  disabledReason: r.disabled_reason,
  disabledAt: r.disabled_at,
  firstFailureAt: r.first_failure_at,
  previousSecretExpiresAt: r.previous_secret_expires_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  event_created_at: Date;
  endpoint_id: string;
  origin: 'fan_out' | 'replay';
  replay_of: string | null;
  status: WebhookDelivery['status'];
  attempt_count: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  attempts: {
    attempt: number;
    started_at: string;
    duration_ms: number;
    response_status: number | null;
    response_excerpt: string;
    error: string | null;
  }[];
}

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  eventId: r.event_id,
  eventType: r.event_type,
  eventCreatedAt: r.event_created_at,
  endpointId: r.endpoint_id,
  origin: r.origin,
  replayOf: r.replay_of,
  status: r.status,
  attemptCount: r.attempt_count,
  nextAttemptAt: r.next_attempt_at,
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  attempts: r.attempts.map((a) => ({
    attempt: a.attempt,
    startedAt: new Date(a.started_at),
    durationMs: a.duration_ms,
    responseStatus: a.response_status,
    responseExcerpt: a.response_excerpt,
    error: a.error,
  })),
});

const DELIVERY_SELECT = `SELECT d.id, d.event_id, e.type AS event_type, e.created_at AS event_created_at, d.endpoint_id, d.origin, d.replay_of, d.status,
    d.attempt_count, d.next_attempt_at, d.last_status, d.last_error, d.created_at, d.updated_at,
    coalesce((SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at,
        'duration_ms', a.duration_ms, 'response_status', a.response_status,
        'response_excerpt', a.response_excerpt, 'error', a.error) ORDER BY a.attempt)
      FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]') AS attempts
  FROM webhook_deliveries d JOIN outbox_events e ON e.id = d.event_id`;

/** The INSERT of an endpoint or subscription, for a VALUES list or a SELECT that may add nothing. */
export const INSERT_ENDPOINT = `INSERT INTO webhook_endpoints
    (id, brand_id, url, event_types, secret, origin, description, created_at, updated_at)`;
export const endpointValues = (row: NewEndpointRow) => [
  row.id,
  row.brandId,
  row.url,
  row.eventTypes,
  row.secret,
  row.origin ?? 'operator',
  row.description ?? null,
  row.at,
];

/** The operator's side of webhooks: endpoints, the delivery log and replays. */
export function webhooksRepository(db: Queryable): WebhookStore {
  return {
    async insertEndpoint(row: NewEndpointRow): Promise<WebhookEndpoint> {
      const { rows } = await db.query<EndpointRow>(
        `${INSERT_ENDPOINT} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING ${ENDPOINT_COLUMNS}`,
        endpointValues(row),
      );
      return toEndpoint(rows[0]!);
    },

    async subscribedTypes(brandId: string): Promise<string[]> {
      const { rows } = await db.query<{ type: string }>({
        name: 'webhooks.subscribedTypes',
        text: "SELECT DISTINCT unnest(event_types) AS type FROM webhook_endpoints WHERE brand_id = $1 AND status <> 'deleted'",
        values: [brandId],
      });
      return rows.map((r) => r.type);
    },

    /** Bumped by a trigger whenever a subscription changes (migration 0007). */
    async subscriptionsVersion(): Promise<number> {
      const { rows } = await db.query<{ version: number }>(
        "SELECT version FROM cache_versions WHERE name = 'webhook_subscriptions'",
      );
      return rows[0]?.version ?? 0;
    },

    async findEndpoint(id: string): Promise<WebhookEndpoint | null> {
      const { rows } = await db.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1`,
        [id],
      );
      return rows[0] ? toEndpoint(rows[0]) : null;
    },

    async listEndpoints(brandId: string | null): Promise<WebhookEndpoint[]> {
      const { rows } = await db.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
          WHERE $1::text IS NULL OR brand_id = $1 ORDER BY created_at, id`,
        [brandId],
      );
      return rows.map(toEndpoint);
    },

    /** Enabling also forgets the failure run, so the 5-day rule starts afresh. */
    async setEndpointStatus(
      id: string,
      change: { status: EndpointStatus; reason: string | null; at: Date },
    ): Promise<WebhookEndpoint | null> {
      const { rows } = await db.query<EndpointRow>(
        `UPDATE webhook_endpoints SET status = $2, disabled_reason = $3,
           disabled_at = CASE WHEN $2 = 'disabled' THEN $4::timestamptz END,
           first_failure_at = CASE WHEN $2 = 'active' THEN NULL ELSE first_failure_at END,
           updated_at = $4
         WHERE id = $1 AND status <> 'deleted' RETURNING ${ENDPOINT_COLUMNS}`,
        [id, change.status, change.reason, change.at],
      );
      return rows[0] ? toEndpoint(rows[0]) : null;
    },

    /** The current secret becomes the previous one, still signing until `previousExpiresAt`. */
    async rotateSecret(
      id: string,
      change: { secret: string; previousExpiresAt: Date; at: Date },
    ): Promise<WebhookEndpoint | null> {
      const { rows } = await db.query<EndpointRow>(
        `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $3,
           secret = $2, updated_at = $4
         WHERE id = $1 AND status <> 'deleted' RETURNING ${ENDPOINT_COLUMNS}`,
        [id, change.secret, change.previousExpiresAt, change.at],
      );
      return rows[0] ? toEndpoint(rows[0]) : null;
    },

    async listDeliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]> {
      const { rows } = await db.query<DeliveryRow>(
        `${DELIVERY_SELECT} WHERE d.endpoint_id = $1 ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
        [endpointId, limit],
      );
      return rows.map(toDelivery);
    },

    async findDelivery(id: string): Promise<WebhookDelivery | null> {
      const { rows } = await db.query<DeliveryRow>(`${DELIVERY_SELECT} WHERE d.id = $1`, [id]);
      return rows[0] ? toDelivery(rows[0]) : null;
    },

    /** A fresh delivery of the same event to the same endpoint, due now: a worker claims it within a second. */
    async replayDelivery(id: string, at: Date): Promise<string | null> {
      const { rows } = await db.query<{ id: string }>(
        `WITH d AS (
           INSERT INTO webhook_deliveries (event_id, endpoint_id, origin, replay_of, next_attempt_at, created_at, updated_at)
           SELECT event_id, endpoint_id, 'replay', id, $2, $2, $2 FROM webhook_deliveries WHERE id = $1
           RETURNING id
         )
         SELECT d.id FROM d`,
        [id, at],
      );
      return rows[0]?.id ?? null;
    },

    /**
     * Fresh deliveries of every event since `since` to every active endpoint subscribed to it
     * (or only `endpointId`), including events an endpoint missed while it was disabled.
     */
    async replaySince(since: Date, endpointId: string | null, at: Date): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `WITH d AS (
           INSERT INTO webhook_deliveries (event_id, endpoint_id, origin, replay_of, next_attempt_at, created_at, updated_at)
           SELECT e.id, w.id, 'replay',
                  (SELECT o.id FROM webhook_deliveries o
                    WHERE o.event_id = e.id AND o.endpoint_id = w.id AND o.origin = 'fan_out'),
                  $3, $3, $3
             FROM webhook_endpoints w
             JOIN outbox_events e ON e.brand_id = w.brand_id AND e.type = ANY (w.event_types)
            WHERE w.status = 'active' AND e.created_at >= $1 AND ($2::text IS NULL OR w.id = $2)
            ORDER BY e.seq
           RETURNING id
         )
         SELECT d.id FROM d`,
        [since, endpointId, at],
      );
      return rows.map((r) => r.id);
    },
  };
}
