import type { OutboxEvent } from '../events/outbox.ts';
import { enqueueJobsSql } from '../infra/queue/queue-sql.ts';
import { OUTBOX_JOB_MAX_ATTEMPTS, OUTBOX_JOB_PAYLOAD_VERSION } from '../jobs/job-names.ts';
import type { Queryable } from './pool.ts';

/** The CTEs to add to a change's statement, and what its main SELECT must include. */
export interface OutboxSql {
  ctes: string;
  /** PostgreSQL skips a CTE nobody reads, and the job CTEs have no other reader. */
  select: string;
}

/**
 * The one place that writes outbox events and enqueues their subscribers' jobs: CTEs to put in
 * the statement that makes the change, so each event exists exactly when the change does (no
 * transaction round trip). `source` names a CTE that returns a row only if the change happened.
 * Parameters are appended to `values`. Null when there is no event.
 */
export function outboxCtes(
  events: readonly (OutboxEvent | null)[],
  values: unknown[],
  source: string,
): OutboxSql | null {
  const written = events.flatMap((event) => (event ? [{ key: '', event }] : []));
  return eventCtes(written, values, `${source} s`, 'true');
}

/**
 * `outboxCtes` for one statement making many changes: `source.cte` returns one row per change
 * made, told apart by its column `source.key`; each event comes with the key of its change and is
 * written (with its jobs) only if that change was made.
 */
export function keyedOutboxCtes(
  events: ReadonlyArray<{ key: string; event: OutboxEvent }>,
  values: unknown[],
  source: { cte: string; key: string },
): OutboxSql | null {
  return eventCtes(events, values, `${source.cte} s`, `s.${source.key} = e.key`);
}

/**
 * The events as one JSON parameter (a table of rows), each written if its change's row is found in
 * `source` (`on`), then one job per subscriber listed with it, in its queue if it has one.
 */
function eventCtes(
  events: ReadonlyArray<{ key: string; event: OutboxEvent }>,
  values: unknown[],
  source: string,
  on: string,
): OutboxSql | null {
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
  const jobs = enqueueJobsSql(
    'outbox_jobs',
    {
      task: 'j.job',
      payload: `json_build_object('v', ${OUTBOX_JOB_PAYLOAD_VERSION}, 'event_id', w.id)`,
      queueName: 'j.queue',
      maxAttempts: OUTBOX_JOB_MAX_ATTEMPTS,
    },
    'outbox_written w JOIN outbox_new e ON e.id = w.id, unnest(e.jobs, e.queues) AS j(job, queue)',
  );
  const ctes = `outbox_new AS (
      SELECT * FROM json_to_recordset($${values.push(JSON.stringify(rows))}::json) AS e(key text, id text,
        brand_id text, type text, data jsonb, created_at timestamptz, jobs text[], queues text[])
    ), outbox_written AS (
      INSERT INTO outbox_events (id, brand_id, type, data, created_at)
      SELECT e.id, e.brand_id, e.type, e.data, e.created_at FROM outbox_new e JOIN ${source} ON ${on}
      RETURNING id
    ), ${jobs.ctes}`;
  return { ctes, select: `${jobs.count} AS outbox_jobs` };
}

/** Writes events on their own, inside the caller's transaction (a change made by several statements). */
export async function appendEvents(db: Queryable, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const values: unknown[] = [];
  const { ctes, select } = outboxCtes(events, values, 'one')!;
  await db.query(`WITH one AS (SELECT 1), ${ctes} SELECT ${select}`, values);
}
