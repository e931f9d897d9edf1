import type { EventsPurgeStep, MessageLogStore, PurgeStep } from '../../domain/privacy/ports.ts';
import type { Queryable } from '../pool.ts';

/**
 * The per-message logs' retention (domain/privacy/message-log-retention.ts). Each statement deletes
 * one batch by primary key and commits alone: its row locks last milliseconds, and it takes them
 * with SKIP LOCKED, so it neither waits for the hot path nor makes it wait.
 *
 * The events and the shops' webhooks are walked in key order (their sequence and id grow with
 * time), so no index on their time is needed: a batch takes the next keys, and the run of them
 * written before the cutoff goes; the first younger one ends the walk.
 */
export function messageLogsRepository(db: Queryable): MessageLogStore {
  return {
    async purgeEvents(cutoff, after, limit): Promise<EventsPurgeStep> {
      const { rows } = await db.query<EventsPurgeStep>({
        name: 'retention.purgeEvents',
        text: `WITH head AS (
            SELECT id, seq, created_at FROM outbox_events WHERE seq > $1 ORDER BY seq LIMIT $2
          ), young AS (
            SELECT min(seq) AS seq FROM head WHERE created_at >= $3
          ), old AS (
            SELECT id, seq FROM head WHERE seq < coalesce((SELECT seq FROM young), 9223372036854775807)
          ), owed AS (
            -- Still being delivered (its schedule is at most a few days; a replay may be recent):
            -- kept until settled.
            SELECT DISTINCT d.event_id FROM webhook_deliveries d JOIN old ON old.id = d.event_id
             WHERE d.status IN ('pending', 'failed') OR d.lease_token IS NOT NULL
          ), gone AS (
            SELECT e.id FROM outbox_events e JOIN old ON old.id = e.id
             WHERE e.id NOT IN (SELECT event_id FROM owed)
             FOR UPDATE OF e SKIP LOCKED
          ), deliveries AS (
            SELECT d.id FROM webhook_deliveries d JOIN gone ON gone.id = d.event_id
          ), attempts AS (
            DELETE FROM webhook_attempts a USING deliveries d WHERE a.delivery_id = d.id RETURNING 1
          ), deleted_deliveries AS (
            DELETE FROM webhook_deliveries w USING deliveries d WHERE w.id = d.id RETURNING 1
          ), deleted AS (
            DELETE FROM outbox_events e USING gone WHERE e.id = gone.id RETURNING 1
          )
          SELECT (SELECT max(seq) FROM old) AS last,
                 (SELECT count(*) FROM old) < (SELECT count(*) FROM head) OR (SELECT count(*) FROM head) < $2 AS done,
                 (SELECT count(*) FROM deleted)::int AS deleted,
                 (SELECT count(*) FROM deleted_deliveries)::int AS deliveries,
                 (SELECT count(*) FROM attempts)::int AS attempts`,
        values: [after, limit, cutoff],
      });
      return rows[0]!;
    },

    async purgeInbox(cutoff, after, limit): Promise<PurgeStep> {
      const { rows } = await db.query<PurgeStep>({
        name: 'retention.purgeInbox',
        text: `WITH head AS (
            SELECT id, received_at FROM connector_inbox WHERE id > $1 ORDER BY id LIMIT $2
          ), young AS (
            SELECT min(id) AS id FROM head WHERE received_at >= $3
          ), old AS (
            SELECT id FROM head WHERE id < coalesce((SELECT id FROM young), 9223372036854775807)
          ), gone AS (
            SELECT i.id FROM connector_inbox i JOIN old ON old.id = i.id FOR UPDATE OF i SKIP LOCKED
          ), deleted AS (
            DELETE FROM connector_inbox i USING gone WHERE i.id = gone.id RETURNING 1
          )
          SELECT (SELECT max(id) FROM old) AS last,
                 (SELECT count(*) FROM old) < (SELECT count(*) FROM head) OR (SELECT count(*) FROM head) < $2 AS done,
                 (SELECT count(*) FROM deleted)::int AS deleted`,
        values: [after, limit, cutoff],
      });
      return rows[0]!;
    },

    // recipient_notifications_created_idx, recipient_codes_created_idx (migration 0041).
    purgeNotifications: (cutoff, limit) =>
      deleteOldest(db, 'recipient_notifications', 'id', 'created_at', cutoff, limit),
    purgeCodes: (cutoff, limit) => deleteOldest(db, 'recipient_codes', 'id', 'created_at', cutoff, limit),
    // sms_early_reports_received_idx (migration 0036).
    purgeSmsReports: (cutoff, limit) =>
      deleteOldest(db, 'sms_early_reports', 'provider_id', 'received_at', cutoff, limit),
    // Rare rows (a failed sync, an answered request): no index on their time is worth its upkeep.
    purgeShopProblems: (cutoff, limit) =>
      deleteOldest(db, 'connector_problems', 'id', 'created_at', cutoff, limit),
    purgeWebhookRequests: (cutoff, limit) =>
      deleteOldest(db, 'webhook_requests', 'id', 'created_at', cutoff, limit, "status <> 'open'"),
  };
}

/** Deletes the oldest rows written before `cutoff` (at most `limit`) by primary key; how many. */
async function deleteOldest(
  db: Queryable,
  table: string,
  key: string,
  time: string,
  cutoff: Date,
  limit: number,
  also = 'true',
): Promise<number> {
  const { rowCount } = await db.query({
    name: `retention.purge.${table}`,
    text: `WITH gone AS (
        SELECT ${key} FROM ${table} WHERE ${time} < $1 AND ${also} ORDER BY ${time} LIMIT $2 FOR UPDATE SKIP LOCKED
      )
      DELETE FROM ${table} t USING gone WHERE t.${key} = gone.${key}`,
    values: [cutoff, limit],
  });
  return rowCount ?? 0;
}
