import { OUTBOX_JOB_PAYLOAD_VERSION, type OutboxEvent } from '../events/outbox.ts';
import type { Queryable } from './pool.ts';

/**
 * The one place that writes outbox events and enqueues their subscribers' jobs: CTEs to put in
 * the statement that makes the change, so each event exists exactly when the change does (no
 * transaction round trip). `source` names a CTE that returns a row only if the change happened.
 * Parameters are appended to `values`. The caller's main SELECT must include `select` (PostgreSQL
 * skips a CTE nobody reads, and the job CTEs have no other reader). Null when there is no event.
 */
export function outboxCtes(
  events: readonly (OutboxEvent | null)[],
  values: unknown[],
  source: string,
): { ctes: string; select: string } | null {
  const written = events.filter((e): e is OutboxEvent => e !== null);
  if (written.length === 0) return null;
  const p = (value: unknown) => `$${values.push(value)}`;
  const ctes = written
    .map(
      (event, i) => `outbox_event_${i} AS (
      INSERT INTO outbox_events (id, brand_id, type, data, created_at)
      SELECT ${p(event.id)}, ${p(event.brandId)}, ${p(event.type)}, ${p(JSON.stringify(event.data))}::jsonb, ${p(event.at)}::timestamptz
        FROM ${source}
      RETURNING id
    ), outbox_jobs_${i} AS (
      SELECT graphile_worker.add_job(j.job, json_build_object('v', ${OUTBOX_JOB_PAYLOAD_VERSION}, 'event_id', outbox_event_${i}.id),
                                     queue_name := j.queue, max_attempts := 25)
        FROM outbox_event_${i}, ${jobsOf(event, p)}
    )`,
    )
    .join(', ');
  const counts = written.map((_, i) => `(SELECT count(*) FROM outbox_jobs_${i})`).join(' + ');
  return { ctes, select: `${counts} AS outbox_jobs` };
}

/**
 * `outboxCtes` for one statement making many changes: `source` names a CTE returning one row per
 * change made, keyed by its column `key`; each event comes with the key of its change and is written
 * (with its jobs) only if that change was made. One parameter, the events as a JSON array, appended
 * to `values`. Null when there is no event.
 */
export function keyedOutboxCtes(
  events: ReadonlyArray<{ key: string; event: OutboxEvent }>,
  values: unknown[],
  source: { cte: string; key: string },
): { ctes: string; select: string } | null {
  if (events.length === 0) return null;
  const rows = events.map(({ key, event }) => ({
    key,
    id: event.id,
    brand_id: event.brandId,
    type: event.type,
    data: event.data,
    created_at: event.at,
    jobs: event.jobs,
    queues: event.queues ?? null,
  }));
  const ctes = `outbox_keyed AS (
      SELECT * FROM json_to_recordset($${values.push(JSON.stringify(rows))}::json) AS e(key text, id text, brand_id text,
        type text, data jsonb, created_at timestamptz, jobs text[], queues text[])
    ), outbox_keyed_events AS (
      INSERT INTO outbox_events (id, brand_id, type, data, created_at)
      SELECT e.id, e.brand_id, e.type, e.data, e.created_at
        FROM outbox_keyed e JOIN ${source.cte} s ON s.${source.key} = e.key
      RETURNING id
    ), outbox_keyed_jobs AS (
      SELECT graphile_worker.add_job(j.job, json_build_object('v', ${OUTBOX_JOB_PAYLOAD_VERSION}, 'event_id', w.id),
                                     queue_name := j.queue, max_attempts := 25)
        FROM outbox_keyed_events w JOIN outbox_keyed e ON e.id = w.id,
             unnest(e.jobs, e.queues) AS j(job, queue)
    )`;
  return { ctes, select: '(SELECT count(*) FROM outbox_keyed_jobs) AS outbox_jobs' };
}

/** The event's jobs as rows `j(job, queue)`; the queue is null unless a subscriber declared one. */
function jobsOf(event: OutboxEvent, p: (value: unknown) => string): string {
  return event.queues
    ? `unnest(${p(event.jobs)}::text[], ${p(event.queues)}::text[]) AS j(job, queue)`
    : `(SELECT job, NULL::text AS queue FROM unnest(${p(event.jobs)}::text[]) AS job) AS j`;
}

/** Writes events on their own, inside the caller's transaction (a change made by several statements). */
export async function appendEvents(db: Queryable, events: readonly OutboxEvent[]): Promise<void> {
  for (const event of events) {
    const values: unknown[] = [];
    const { ctes, select } = outboxCtes([event], values, 'one')!;
    await db.query(`WITH one AS (SELECT 1), ${ctes} SELECT ${select}`, values);
  }
}
