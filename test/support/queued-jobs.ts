import type { JobHelpers } from 'graphile-worker';
import type { Pool } from '../../src/db/pool.ts';
import type { Deps } from '../../src/deps.ts';
import { taskList } from '../../src/jobs/index.ts';

/**
 * Runs, here and now, the queued jobs named `name` whose payload contains `match`, through the
 * worker's task list (as a worker would, payload checks included), and removes them from the
 * queue. Claimed first, so a worker running elsewhere never runs one of them too; other jobs of
 * the shared test database are left alone. Returns how many ran.
 */
export async function runQueuedJobs(
  deps: Deps,
  pool: Pool,
  name: string,
  match: Record<string, string>,
): Promise<number> {
  const { rows } = await pool.query<{ id: string; payload: unknown }>(
    `DELETE FROM graphile_worker._private_jobs j
      USING graphile_worker._private_tasks k
      WHERE k.id = j.task_id AND k.identifier = $1 AND j.payload::jsonb @> $2::jsonb AND j.locked_at IS NULL
      RETURNING j.id::text, j.payload`,
    [name, JSON.stringify(match)],
  );
  const task = taskList(deps)[name]!;
  const helpers = { logger: { info() {}, warn() {}, error() {}, debug() {} } } as unknown as JobHelpers;
  for (const row of rows) await task(row.payload, helpers);
  return rows.length;
}

/** How many jobs named `name` whose payload contains `match` are waiting. */
export async function queuedJobs(pool: Pool, name: string, match: Record<string, string>): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks k ON k.id = j.task_id
      WHERE k.identifier = $1 AND j.payload::jsonb @> $2::jsonb`,
    [name, JSON.stringify(match)],
  );
  return rows[0]!.n;
}
