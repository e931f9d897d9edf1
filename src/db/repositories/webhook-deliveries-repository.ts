import { randomUUID } from 'node:crypto';
import type { DeliveryStatus } from '../../domain/webhooks/delivery.ts';
import type { EndpointOrigin, EndpointStatus } from '../../domain/webhooks/endpoint.ts';
import type { WebhookEventType } from '../../domain/webhooks/events.ts';
import type {
  AttemptRecord,
  ClaimedDelivery,
  ClaimRequest,
  WebhookDeliveryStore,
} from '../../domain/webhooks/ports.ts';
import { takeWaitingJobsSql } from '../../infra/queue/queue-sql.ts';
import { WEBHOOKS_FAN_OUT_SPEC } from '../../jobs/job-names.ts';
import type { Queryable } from '../pool.ts';

interface ClaimedRow {
  id: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  lease_token: string;
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

/** A CTE `claimed` (the deliveries' columns) joined to what an attempt needs. */
const CLAIMED_SELECT = `SELECT c.id, c.status, c.attempt_count, c.next_attempt_at, c.lease_token,
    e.id AS event_id, e.type AS event_type, e.data AS event_data, e.created_at AS event_created_at,
    w.id AS endpoint_id, w.url, w.origin, w.status AS endpoint_status, w.secret, w.previous_secret,
    w.previous_secret_expires_at, w.first_failure_at
  FROM claimed c
  JOIN outbox_events e ON e.id = c.event_id
  JOIN webhook_endpoints w ON w.id = c.endpoint_id`;

/**
 * A CTE making the statement's commit asynchronous (not waiting for the WAL flush). Safe for the
 * statements of delivery, which are all at least once: a claim lost in a database crash leaves the
 * delivery claimable, a lost outcome has it sent again (same webhook-id), a lost fan-out leaves its
 * jobs in the queue. It halves their latency on a busy disk.
 */
const ASYNC_COMMIT = `async_commit AS (SELECT set_config('synchronous_commit', 'off', true) AS set)`;

const LEASE = (param: string) => `now() + make_interval(secs => ${param}::double precision / 1000)`;
/** Owed an attempt and held by nobody (a lease past its time was its dead worker's). */
const CLAIMABLE = `d.status IN ('pending', 'failed') AND (d.lease_until IS NULL OR d.lease_until < now())`;

function toClaimed(r: ClaimedRow): ClaimedDelivery {
  return {
    id: r.id,
    status: r.status,
    attemptCount: r.attempt_count,
    nextAttemptAt: r.next_attempt_at,
    leaseToken: r.lease_token,
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
}

/** The job side of webhooks: fan-out, and the deliveries as a queue of their own (leases). */
export function webhookDeliveriesRepository(db: Queryable): WebhookDeliveryStore {
  return {
    async fanOut(eventIds, at, options = {}) {
      // The events first, each looked up once (MATERIALIZED), then their brands' endpoints: joined
      // the other way round, the planner probed outbox_events for every event once per endpoint.
      // Named: prepared once per connection; planned at each call it cost ~4 ms of PostgreSQL's
      // CPU, ~100 µs a delivery at the 30-odd events a fan-out takes under steady load.
      const { rows } = await db.query<{ id: string; eventId: string }>({
        name: 'webhook_deliveries_fan_out',
        text: `WITH ${ASYNC_COMMIT}, taken AS (${takeWaitingJobsSql('$3', '$4')}),
         events AS (
           SELECT unnest($1::text[]) AS id
           UNION SELECT t.payload->>'event_id' FROM taken t
            WHERE (t.payload->>'v')::int = ${WEBHOOKS_FAN_OUT_SPEC.payloadVersion} AND t.payload->>'event_id' IS NOT NULL
         ),
         ev AS MATERIALIZED (
           SELECT e.id, e.brand_id, e.type FROM outbox_events e WHERE e.id IN (SELECT id FROM events)
         )
         INSERT INTO webhook_deliveries (event_id, endpoint_id, next_attempt_at, created_at, updated_at)
         SELECT ev.id, w.id, $2, $2, $2
           FROM ev
           JOIN webhook_endpoints w
             ON w.brand_id = ev.brand_id AND w.status = 'active' AND ev.type = ANY (w.event_types)
          WHERE (SELECT set FROM async_commit) IS NOT NULL
         ON CONFLICT (event_id, endpoint_id) WHERE origin = 'fan_out' DO NOTHING
         RETURNING id, event_id AS "eventId"`,
        values: [eventIds, at, WEBHOOKS_FAN_OUT_SPEC.name, options.takeWaiting ?? 0],
      });
      return rows;
    },

    async claim(request: ClaimRequest): Promise<ClaimedDelivery[]> {
      if (request.limit <= 0) return [];
      const rooms = request.rooms.map((r) => ({ id: r.endpointId, room: r.room }));
      // The endpoints owed something, by a loose index scan (one probe per endpoint, whatever its
      // backlog), then each one's oldest due deliveries up to its room.
      // Named: prepared once per connection, so the planner's few milliseconds are not paid each time.
      // Each endpoint's deliveries in the order of (endpoint_id, next_attempt_at): the order of the
      // endpoint's own partial index, which the planner then walks from the endpoint's first due row;
      // ordered by next_attempt_at alone it walked the all-endpoints due index, stepping over every
      // other endpoint's backlog (a slow endpoint's above all) on each claim.
      const { rows } = await db.query<ClaimedRow>({
        name: 'webhook_deliveries_claim',
        text: `WITH RECURSIVE ${ASYNC_COMMIT}, ep(id) AS (
           (SELECT d.endpoint_id FROM webhook_deliveries d
             WHERE d.status IN ('pending', 'failed') ORDER BY d.endpoint_id LIMIT 1)
           UNION ALL
           SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                    WHERE d.status IN ('pending', 'failed') AND d.endpoint_id > ep.id
                    ORDER BY d.endpoint_id LIMIT 1)
             FROM ep WHERE ep.id IS NOT NULL
         ), rooms AS (
           SELECT ep.id, coalesce(b.room, $3::int) AS room
             FROM ep LEFT JOIN json_to_recordset($4::json) AS b(id text, room int) ON b.id = ep.id
            WHERE ep.id IS NOT NULL
         ), picked AS (
           SELECT p.id FROM rooms r, LATERAL (
             SELECT d.id FROM webhook_deliveries d
              WHERE d.endpoint_id = r.id AND ${CLAIMABLE} AND d.next_attempt_at <= $1
              ORDER BY d.endpoint_id, d.next_attempt_at LIMIT r.room
              FOR UPDATE SKIP LOCKED) p
            WHERE r.room > 0
            LIMIT $5
         ), claimed AS (
           UPDATE webhook_deliveries d SET lease_until = ${LEASE('$2')}, lease_token = $6
            WHERE d.id = ANY (ARRAY(SELECT id FROM picked)) AND (SELECT set FROM async_commit) IS NOT NULL
           RETURNING d.id, d.status, d.attempt_count, d.next_attempt_at, d.lease_token, d.event_id, d.endpoint_id
         )
         ${CLAIMED_SELECT}`,
        values: [
          request.at,
          request.leaseMs,
          request.perEndpoint,
          JSON.stringify(rooms),
          request.limit,
          randomUUID(),
        ],
      });
      return rows.map(toClaimed);
    },

    async claimOne(deliveryId, leaseMs) {
      const { rows } = await db.query<ClaimedRow>(
        `WITH claimed AS (
           UPDATE webhook_deliveries d SET lease_until = ${LEASE('$2')}, lease_token = $3
            WHERE d.id = (SELECT id FROM webhook_deliveries
                           WHERE id = $1 AND (lease_until IS NULL OR lease_until < now())
                           FOR UPDATE SKIP LOCKED)
           RETURNING d.id, d.status, d.attempt_count, d.next_attempt_at, d.lease_token, d.event_id, d.endpoint_id
         )
         ${CLAIMED_SELECT}`,
        [deliveryId, leaseMs, randomUUID()],
      );
      if (rows[0]) return toClaimed(rows[0]);
      const { rowCount } = await db.query('SELECT 1 FROM webhook_deliveries WHERE id = $1', [deliveryId]);
      return (rowCount ?? 0) > 0 ? 'busy' : null;
    },

    async release(deliveryId, leaseToken) {
      await db.query(
        'UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL WHERE id = $1 AND lease_token = $2',
        [deliveryId, leaseToken],
      );
    },

    async settle(records: readonly AttemptRecord[]): Promise<string[]> {
      if (records.length === 0) return [];
      const rows = records.map((r) => ({
        id: r.deliveryId,
        token: r.leaseToken,
        status: r.outcome.status,
        next_attempt_at: r.outcome.nextAttemptAt,
        attempt_count: r.attemptCount,
        last_status: r.lastStatus,
        last_error: r.lastError,
        at: r.at,
        attempt: r.attempt?.number ?? null,
        started_at: r.attempt?.startedAt ?? null,
        duration_ms: r.attempt?.result.durationMs ?? null,
        response_status: r.attempt?.result.status ?? null,
        response_excerpt: r.attempt?.result.responseExcerpt ?? null,
        error: r.attempt?.result.error ?? null,
      }));
      // The ids also as an array: the rows of json_to_recordset are estimated at 100 whatever they
      // are, and against that the planner chose to scan the whole table and hash it; `id = ANY`
      // takes the primary key.
      const { rows: settled } = await db.query<{ id: string }>({
        name: 'webhook_deliveries_settle',
        text: `WITH ${ASYNC_COMMIT}, o AS (
           SELECT * FROM json_to_recordset($1::json) AS o(id text, token text, status text,
             next_attempt_at timestamptz, attempt_count int, last_status int, last_error text, at timestamptz,
             attempt int, started_at timestamptz, duration_ms int, response_status int, response_excerpt text,
             error text)
         ), d AS (
           UPDATE webhook_deliveries w SET status = o.status, next_attempt_at = o.next_attempt_at,
             attempt_count = o.attempt_count, last_status = o.last_status, last_error = o.last_error,
             updated_at = o.at, lease_until = NULL, lease_token = NULL
             FROM o WHERE w.id = ANY ($2::text[]) AND w.id = o.id AND w.lease_token = o.token
              AND (SELECT set FROM async_commit) IS NOT NULL
           RETURNING w.id
         ), a AS (
           INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, response_excerpt, error)
           SELECT o.id, o.attempt, o.started_at, o.duration_ms, o.response_status, o.response_excerpt, o.error
             FROM o JOIN d ON d.id = o.id WHERE o.attempt IS NOT NULL
           RETURNING delivery_id
         )
         SELECT d.id, (SELECT count(*) FROM a) AS attempts FROM d`,
        values: [JSON.stringify(rows), records.map((r) => r.deliveryId)],
      });
      return settled.map((r) => r.id);
    },

    async expireLeases(): Promise<number> {
      const { rowCount } = await db.query(
        `UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL
          WHERE lease_until < now() AND status IN ('pending', 'failed')`,
      );
      return rowCount ?? 0;
    },

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

    async deleteEndpoint(endpointId: string, reason: string, at: Date): Promise<void> {
      await db.query(
        `UPDATE webhook_endpoints SET status = 'deleted', deleted_at = $3, disabled_reason = $2, updated_at = $3
          WHERE id = $1 AND status <> 'deleted'`,
        [endpointId, reason, at],
      );
    },
  };
}
