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
