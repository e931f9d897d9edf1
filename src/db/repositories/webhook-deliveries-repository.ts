import type { DeliveryStatus } from '../../domain/webhooks/delivery.ts';
import type { DeliveryOutcome } from '../../domain/webhooks/delivery-outcome.ts';
import type { EndpointOrigin, EndpointStatus } from '../../domain/webhooks/endpoint.ts';
import type { WebhookEventType } from '../../domain/webhooks/events.ts';
import type { DeliveryAttemptResult } from '../../domain/webhooks/outbound.ts';
import type { LockedDelivery, WebhookDeliveryStore } from '../../domain/webhooks/ports.ts';
import { QUEUED_JOBS } from '../../infra/queue/queue-sql.ts';
import type { Queryable } from '../pool.ts';
import { deliveryJobKey, ENQUEUE_DELIVERIES } from './webhook-jobs-sql.ts';

interface LockedRow {
  id: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  event_id: string;
  event_type: WebhookEventType;
  event_data: Record<string, unknown>;
  event_created_at: Date;
  endpoint_id: string;
  url: string;
  origin: EndpointOrigin;
  endpoint_status: EndpointStatus;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  first_failure_at: Date | null;
}

/** The job side of webhooks: fan-out, and one attempt's lock, log and follow-up. */
export function webhookDeliveriesRepository(db: Queryable): WebhookDeliveryStore {
  return {
    /**
     * One delivery per active endpoint of the event's brand subscribed to its type, each with its
     * job, in one statement. A re-run finds the deliveries already there and enqueues nothing.
     */
    async fanOut(eventId: string, at: Date): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `WITH d AS (
           INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at, created_at, updated_at)
           SELECT e.id, w.id, $2, $2, $2
             FROM outbox_events e
             JOIN webhook_endpoints w
               ON w.brand_id = e.brand_id AND w.status = 'active' AND e.type = ANY (w.event_types)
            WHERE e.id = $1
           ON CONFLICT (event_id, endpoint_id) WHERE origin = 'fan_out' DO NOTHING
           RETURNING id, next_attempt_at
         ), j AS (${ENQUEUE_DELIVERIES})
         SELECT d.id, (SELECT count(*) FROM j) AS jobs FROM d`,
        [eventId, at],
      );
      return rows.map((r) => r.id);
    },

    /**
     * Locks the delivery for the length of the caller's transaction. SKIP LOCKED: null when it is
     * unknown or another worker is sending it right now (that worker records the outcome and
     * schedules what follows), so one delivery is never sent twice at once.
     */
    async exists(deliveryId: string): Promise<boolean> {
      const { rowCount } = await db.query('SELECT 1 FROM webhook_deliveries WHERE id = $1', [deliveryId]);
      return (rowCount ?? 0) > 0;
    },

    async lock(deliveryId: string): Promise<LockedDelivery | null> {
      const { rows } = await db.query<LockedRow>(
        `SELECT d.id, d.status, d.attempt_count, d.next_attempt_at,
                e.id AS event_id, e.type AS event_type, e.data AS event_data, e.created_at AS event_created_at,
                w.id AS endpoint_id, w.url, w.origin, w.status AS endpoint_status, w.secret, w.previous_secret,
                w.previous_secret_expires_at, w.first_failure_at
           FROM webhook_deliveries d
           JOIN outbox_events e ON e.id = d.event_id
           JOIN webhook_endpoints w ON w.id = d.endpoint_id
          WHERE d.id = $1
          FOR UPDATE OF d SKIP LOCKED`,
        [deliveryId],
      );
      const r = rows[0];
      if (!r) return null;
      return {
        id: r.id,
        status: r.status,
        attemptCount: r.attempt_count,
        nextAttemptAt: r.next_attempt_at,
        event: { id: r.event_id, type: r.event_type, data: r.event_data, createdAt: r.event_created_at },
        endpoint: {
          id: r.endpoint_id,
          url: r.url,
          origin: r.origin,
          status: r.endpoint_status,
          secret: r.secret,
          previousSecret: r.previous_secret,
          previousSecretExpiresAt: r.previous_secret_expires_at,
          firstFailureAt: r.first_failure_at,
        },
      };
    },

    async recordAttempt(attempt: {
      deliveryId: string;
      number: number;
      startedAt: Date;
      result: DeliveryAttemptResult;
    }): Promise<void> {
      const { result } = attempt;
      await db.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, response_excerpt, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          attempt.deliveryId,
          attempt.number,
          attempt.startedAt,
          result.durationMs,
          result.status,
          result.responseExcerpt,
          result.error,
        ],
      );
    },

    /** Stores the outcome and, for a retry, enqueues the next attempt at its time. */
    async settle(
      deliveryId: string,
      change: {
        outcome: Pick<DeliveryOutcome, 'status' | 'nextAttemptAt'>;
        attemptCount: number;
        lastStatus: number | null;
        lastError: string | null;
        at: Date;
      },
    ): Promise<void> {
      await db.query(
        `WITH d AS (
           UPDATE webhook_deliveries SET status = $2, next_attempt_at = $3, attempt_count = $4,
             last_status = $5, last_error = $6, updated_at = $7
           WHERE id = $1 RETURNING id, status, next_attempt_at
         ), r AS (SELECT * FROM d WHERE status = 'failed'),
         j AS (${ENQUEUE_DELIVERIES.replace('FROM d', 'FROM r d')})
         SELECT (SELECT count(*) FROM j) AS jobs`,
        [
          deliveryId,
          change.outcome.status,
          change.outcome.nextAttemptAt,
          change.attemptCount,
          change.lastStatus,
          change.lastError,
          change.at,
        ],
      );
    },

    /** Re-enqueues a delivery whose job ran before its time (clocks differ between hosts). */
    async requeue(deliveryId: string): Promise<void> {
      await db.query(
        `WITH d AS (SELECT id, next_attempt_at FROM webhook_deliveries WHERE id = $1) ${ENQUEUE_DELIVERIES}`,
        [deliveryId],
      );
    },

    /**
     * The endpoint's failure run: a success ends it, a failure starts it if none is running.
     * Writes only on a change, so a healthy endpoint's row is not rewritten by every delivery.
     */
    async trackEndpointHealth(endpointId: string, ok: boolean, at: Date): Promise<void> {
      await db.query(
        ok
          ? 'UPDATE webhook_endpoints SET first_failure_at = NULL WHERE id = $1 AND first_failure_at IS NOT NULL'
          : 'UPDATE webhook_endpoints SET first_failure_at = $2 WHERE id = $1 AND first_failure_at IS NULL',
        ok ? [endpointId] : [endpointId, at],
      );
    },

    async disableEndpoint(endpointId: string, reason: string, at: Date): Promise<void> {
      await db.query(
        `UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = $2, disabled_at = $3, updated_at = $3
          WHERE id = $1 AND status = 'active'`,
        [endpointId, reason, at],
      );
    },

    /** An API subscription whose receiver answered 410 Gone: deleted, as its brand could do. */
    async deleteEndpoint(endpointId: string, reason: string, at: Date): Promise<void> {
      await db.query(
        `UPDATE webhook_endpoints SET status = 'deleted', deleted_at = $3, disabled_reason = $2, updated_at = $3
          WHERE id = $1 AND status <> 'deleted'`,
        [endpointId, reason, at],
      );
    },

    /**
     * Deliveries owed an attempt for over `graceMs` whose job is gone or held by a worker that
     * died (locked long ago while the delivery row itself is not locked): enqueued again, so a
     * crash mid-send delays a delivery but never loses it.
     */
    async requeueOrphans(now: Date, graceMs: number): Promise<string[]> {
      const { rows } = await db.query<{ id: string }>(
        `WITH d AS (
           SELECT w.id, $1::timestamptz AS next_attempt_at
             FROM webhook_deliveries w
            WHERE w.status IN ('pending', 'failed')
              AND w.next_attempt_at < $1::timestamptz - make_interval(secs => $2::double precision / 1000)
              AND NOT EXISTS (
                SELECT 1 FROM ${QUEUED_JOBS} j
                 WHERE j.key = ${deliveryJobKey('w.id')}
                   AND j.attempts < j.max_attempts
                   AND (j.locked_at IS NULL OR j.locked_at > now() - make_interval(secs => $2::double precision / 1000)))
            ORDER BY w.next_attempt_at
            LIMIT 1000
            FOR UPDATE OF w SKIP LOCKED
         ), j AS (${ENQUEUE_DELIVERIES})
         SELECT d.id, (SELECT count(*) FROM j) AS jobs FROM d`,
        [now, graceMs],
      );
      return rows.map((r) => r.id);
    },
  };
}
