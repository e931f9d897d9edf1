import type { Platform, ProblemDetails, ProblemKind, SyncProblem } from '../../connectors/connection.ts';
import { prefixedId } from '../../domain/ids.ts';
import { addJobSql, QUEUED_JOBS } from '../../infra/queue/queue-sql.ts';
import { INBOX_JOB_MAX_ATTEMPTS, INBOX_JOB_PAYLOAD_VERSION } from '../../jobs/job-names.ts';
import type { Queryable } from '../pool.ts';

export interface InboxEntry {
  id: number;
  platform: Platform;
  deliveryId: string;
  shop: string;
  topic: string;
  externalOrderId: string | null;
  payload: string | null;
  receivedAt: Date;
  processedAt: Date | null;
  outcome: string | null;
}

export interface NewInboxEntry {
  platform: Platform;
  deliveryId: string;
  shop: string;
  topic: string;
  externalOrderId: string | null;
  payload: string;
  at: Date;
}

export interface OrderLink {
  connectionId: string;
  externalId: string;
  externalName: string | null;
  orderId: number;
  trackingRef: string;
  fulfillmentId: string | null;
}

export type NewProblem = Omit<SyncProblem, 'id' | 'createdAt' | 'details'> & {
  at: Date;
  details?: ProblemDetails;
};

interface ProblemRow {
  id: string;
  connection_id: string;
  brand_id: string;
  kind: ProblemKind;
  external_id: string;
  external_name: string | null;
  message: string;
  details: ProblemDetails;
  created_at: Date;
}

const toProblem = (r: ProblemRow): SyncProblem => ({
  id: r.id,
  connectionId: r.connection_id,
  brandId: r.brand_id,
  kind: r.kind,
  externalId: r.external_id,
  externalName: r.external_name,
  message: r.message,
  details: r.details,
  createdAt: r.created_at,
});

const LINK_COLUMNS = `connection_id AS "connectionId", external_id AS "externalId", external_name AS "externalName",
  order_id AS "orderId", tracking_ref AS "trackingRef", fulfillment_id AS "fulfillmentId"`;

/** The connectors' inbox of received webhooks, their order links and their sync problems. */
export function connectorSyncRepository(db: Queryable) {
  return {
    /**
     * When a job of `task` in the same queue carries an older outbox event than `eventId` and is
     * still to run (waiting out a backoff or a deferral), when it is due; else null. Graphile runs a
     * queue's jobs one at a time but by due time, so a retried job could otherwise be overtaken.
     */
    async olderQueuedEventDue(
      task: string,
      queueId: number,
      jobId: string,
      eventId: string,
    ): Promise<Date | null> {
      const { rows } = await db.query<{ due: Date | null }>(
        `SELECT max(j.run_at) AS due
           FROM ${QUEUED_JOBS} j
           JOIN outbox_events e ON e.id = j.payload->>'event_id'
           JOIN outbox_events mine ON mine.id = $4
          WHERE j.task = $1 AND j.queue_id = $2 AND j.id <> $3::bigint AND j.attempts < j.max_attempts
            AND (e.created_at, j.id) < (mine.created_at, $3::bigint)`,
        [task, queueId, jobId, eventId],
      );
      return rows[0]?.due ?? null;
    },

    /**
     * Stores a received webhook and enqueues `job` for it, in one statement: both or neither. A
     * delivery id already stored (the shop retrying) stores nothing and returns null.
     */
    async receive(entry: NewInboxEntry, job: string): Promise<number | null> {
      const { rows } = await db.query<{ id: number }>({
        name: 'connectors.receive',
        text: `WITH stored AS (
            INSERT INTO connector_inbox (platform, delivery_id, shop, topic, external_order_id, payload, received_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7)
            ON CONFLICT (platform, delivery_id) DO NOTHING RETURNING id
          ), queued AS (
            SELECT ${addJobSql({
              task: '$8',
              payload: `json_build_object('v', ${INBOX_JOB_PAYLOAD_VERSION}, 'inbox_id', stored.id::text)`,
              maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
            })} FROM stored
          )
          SELECT id, (SELECT count(*) FROM queued) AS queued FROM stored`,
        values: [
          entry.platform,
          entry.deliveryId,
          entry.shop,
          entry.topic,
          entry.externalOrderId,
          entry.payload,
          entry.at,
          job,
        ],
      });
      return rows[0]?.id ?? null;
    },

    async findInbox(id: number): Promise<InboxEntry | null> {
      const { rows } = await db.query<InboxEntry>(
        `SELECT id, platform, delivery_id AS "deliveryId", shop, topic, external_order_id AS "externalOrderId",
                payload, received_at AS "receivedAt", processed_at AS "processedAt", outcome
           FROM connector_inbox WHERE id = $1`,
        [id],
      );
      return rows[0] ?? null;
    },

    /** A stored delivery given up on: forgotten, so the same state can be stored (and processed) again. */
    async forgetInbox(id: number): Promise<void> {
      await db.query('DELETE FROM connector_inbox WHERE id = $1 AND processed_at IS NULL', [id]);
    },

    /** `erasePayload`: what the payload said is no longer needed (privacy requests keep no copy). */
    async markProcessed(id: number, outcome: string, at: Date, erasePayload = false): Promise<void> {
      await db.query(
        `UPDATE connector_inbox SET processed_at = $2, outcome = left($3, 500),
            payload = CASE WHEN $4 THEN NULL ELSE payload END
          WHERE id = $1`,
        [id, at, outcome, erasePayload],
      );
    },

    /** The link of a shop order to its delivery order; false when that shop order already has one. */
    async linkOrder(link: Omit<OrderLink, 'fulfillmentId'>, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `INSERT INTO connector_orders (connection_id, external_id, external_name, order_id, tracking_ref, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (connection_id, external_id) DO NOTHING`,
        [link.connectionId, link.externalId, link.externalName, link.orderId, link.trackingRef, at],
      );
      return rowCount === 1;
    },

    async findLink(connectionId: string, externalId: string): Promise<OrderLink | null> {
      const { rows } = await db.query<OrderLink>(
        `SELECT ${LINK_COLUMNS} FROM connector_orders WHERE connection_id = $1 AND external_id = $2`,
        [connectionId, externalId],
      );
      return rows[0] ?? null;
    },

    /** The platform of the shop the delivery order came from, or null (made by API). */
    async platformOfOrder(trackingRef: string): Promise<Platform | null> {
      const { rows } = await db.query<{ platform: Platform }>(
        `SELECT c.platform FROM connector_orders o JOIN connector_connections c ON c.id = o.connection_id
          WHERE o.tracking_ref = $1`,
        [trackingRef],
      );
      return rows[0]?.platform ?? null;
    },

    async findLinkByTrackingRef(trackingRef: string): Promise<OrderLink | null> {
      const { rows } = await db.query<OrderLink>(
        `SELECT ${LINK_COLUMNS} FROM connector_orders WHERE tracking_ref = $1`,
        [trackingRef],
      );
      return rows[0] ?? null;
    },

    async setFulfillment(connectionId: string, externalId: string, fulfillmentId: string): Promise<void> {
      await db.query(
        'UPDATE connector_orders SET fulfillment_id = $3 WHERE connection_id = $1 AND external_id = $2',
        [connectionId, externalId, fulfillmentId],
      );
    },

    /** Recorded once per shop order and kind: a webhook delivered again adds nothing. */
    async recordProblem(p: NewProblem): Promise<void> {
      await db.query(
        `INSERT INTO connector_problems (id, connection_id, brand_id, kind, external_id, external_name, message,
           details, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, left($7, 2000), $8, $9)
         ON CONFLICT (connection_id, external_id, kind) DO NOTHING`,
        [
          prefixedId('cpb'),
          p.connectionId,
          p.brandId,
          p.kind,
          p.externalId,
          p.externalName,
          p.message,
          JSON.stringify(p.details ?? {}),
          p.at,
        ],
      );
    },

    /** Newest first; `brandId` null: every brand's (the operator). */
    async listProblems(
      filter: { brandId: string | null; connectionId?: string | null },
      limit: number,
    ): Promise<SyncProblem[]> {
      const { rows } = await db.query<ProblemRow>(
        `SELECT * FROM connector_problems
          WHERE ($1::text IS NULL OR brand_id = $1) AND ($2::text IS NULL OR connection_id = $2)
          ORDER BY created_at DESC, id LIMIT $3`,
        [filter.brandId, filter.connectionId ?? null, limit],
      );
      return rows.map(toProblem);
    },

    /** Problems on record per platform and kind, every brand's (the metrics: no brand, no shop). */
    async problemTotals(): Promise<Array<{ platform: Platform; kind: ProblemKind; count: number }>> {
      const { rows } = await db.query<{ platform: Platform; kind: ProblemKind; count: number }>(
        `SELECT c.platform, p.kind, count(*)::int AS count
           FROM connector_problems p JOIN connector_connections c ON c.id = p.connection_id
          GROUP BY c.platform, p.kind`,
      );
      return rows;
    },

    async problemCounts(brandId: string | null): Promise<Map<string, number>> {
      const { rows } = await db.query<{ connection_id: string; n: number }>(
        `SELECT connection_id, count(*)::int AS n FROM connector_problems
          WHERE $1::text IS NULL OR brand_id = $1 GROUP BY connection_id`,
        [brandId],
      );
      return new Map(rows.map((r) => [r.connection_id, r.n]));
    },

    /**
     * When each link last heard from its shop (the newest webhook processed within the link's life:
     * a shop linked again later is a new link). `brandId` null: every brand's.
     */
    async lastSyncs(brandId: string | null): Promise<Map<string, Date>> {
      const { rows } = await db.query<{ id: string; at: Date }>(
        `SELECT c.id, max(i.processed_at) AS at
           FROM connector_connections c
           JOIN connector_inbox i ON i.platform = c.platform AND i.shop = c.shop
            AND i.received_at >= c.created_at
            AND (c.disconnected_at IS NULL OR i.received_at <= c.disconnected_at)
          WHERE ($1::text IS NULL OR c.brand_id = $1) AND i.processed_at IS NOT NULL
          GROUP BY c.id`,
        [brandId],
      );
      return new Map(rows.map((r) => [r.id, r.at]));
    },

    /** An outbox event as a connector's job reads it. */
    async findEvent(id: string): Promise<{ type: string; brandId: string; data: unknown; at: Date } | null> {
      const { rows } = await db.query<{ type: string; brandId: string; data: unknown; at: Date }>(
        'SELECT type, brand_id AS "brandId", data, created_at AS at FROM outbox_events WHERE id = $1',
        [id],
      );
      return rows[0] ?? null;
    },

    /**
     * A shop's erasure request: every payload it sent us, every problem and order link of its
     * connections. The delivery orders themselves are the brand's records (invoicing, disputes).
     */
    async eraseShop(platform: Platform, shop: string): Promise<void> {
      await db.query(
        'UPDATE connector_inbox SET payload = NULL WHERE platform = $1 AND shop = $2 AND payload IS NOT NULL',
        [platform, shop],
      );
      const connections = `SELECT id FROM connector_connections WHERE platform = $1 AND shop = $2`;
      await db.query(`DELETE FROM connector_problems WHERE connection_id IN (${connections})`, [
        platform,
        shop,
      ]);
      await db.query(`DELETE FROM connector_orders WHERE connection_id IN (${connections})`, [
        platform,
        shop,
      ]);
    },

    /** A customer's erasure request: the payloads and problems about their orders. */
    async eraseOrders(platform: Platform, shop: string, externalIds: readonly string[]): Promise<void> {
      if (externalIds.length === 0) return;
      await db.query(
        `UPDATE connector_inbox SET payload = NULL
          WHERE platform = $1 AND shop = $2 AND external_order_id = ANY($3::text[])`,
        [platform, shop, externalIds],
      );
      await db.query(
        `DELETE FROM connector_problems WHERE external_id = ANY($3::text[])
            AND connection_id IN (SELECT id FROM connector_connections WHERE platform = $1 AND shop = $2)`,
        [platform, shop, externalIds],
      );
    },
  };
}

export type ConnectorSyncRepository = ReturnType<typeof connectorSyncRepository>;
