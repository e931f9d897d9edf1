import type { Pool } from '../../src/db/pool.ts';
import type { Deps } from '../../src/deps.ts';
import { jobQueueOn } from '../../src/infra/queue/job-queue.ts';
import { taskList } from '../../src/jobs/index.ts';
import type { JobHelpers } from '../../src/jobs/job.ts';

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
  const rows = await jobQueueOn(pool).remove({ task: name, payloadContains: match });
  const task = taskList(deps)[name]!;
  const helpers = { logger: { info() {}, warn() {}, error() {}, debug() {} } } as unknown as JobHelpers;
  for (const row of rows) await task(row.payload, helpers);
  return rows.length;
}

/** How many jobs named `name` whose payload contains `match` are waiting. */
export async function queuedJobs(pool: Pool, name: string, match: Record<string, string>): Promise<number> {
  return (await jobQueueOn(pool).figures({ task: name, payloadContains: match })).jobs;
}

/**
 * The jobs (those no worker holds) as a worker killed mid-job leaves them: held by `worker` since
 * `ago` (an interval). No queue function does this (only a worker claims a job), so it writes
 * graphile-worker's private table, as test/queue-contract.test.ts pins it.
 */
export async function holdAsDeadWorker(
  pool: Pool,
  ids: readonly string[],
  worker: string,
  ago: string,
): Promise<void> {
  await pool.query(
    `UPDATE graphile_worker._private_jobs SET locked_by = $2, locked_at = now() - $3::interval
      WHERE id = ANY($1::bigint[]) AND locked_at IS NULL`,
    [ids, worker, ago],
  );
}

/** The jobs as the queue leaves them once out of attempts: failed for good, with `error`. */
export async function failForGood(pool: Pool, ids: readonly string[], error: string): Promise<void> {
  await pool.query(
    `UPDATE graphile_worker._private_jobs SET attempts = max_attempts, last_error = $2
      WHERE id = ANY($1::bigint[])`,
    [ids, error],
  );
}

/**
 * The unheld jobs of `task` due now rather than after their backoff (seconds to hours), as the
 * queue would run them later; `onlyLater`: only those due in the future. Returns how many.
 */
export async function makeDueNow(
  pool: Pool,
  task: string,
  options: { onlyLater?: boolean } = {},
): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE graphile_worker._private_jobs j SET run_at = now()
       FROM graphile_worker._private_tasks k
      WHERE k.id = j.task_id AND k.identifier = $1 AND j.locked_at IS NULL AND ($2 OR j.run_at > now())`,
    [task, options.onlyLater !== true],
  );
  return rowCount ?? 0;
}

/**
 * The failed jobs named `task` get their last attempt now (as the queue would after about three
 * days of backoff): what a job does when it gives up can be seen at once.
 */
export async function lastAttemptNow(pool: Pool, task: string): Promise<number> {
  const { rowCount } = await pool.query(
    `UPDATE graphile_worker._private_jobs j SET attempts = j.max_attempts - 1, run_at = now()
       FROM graphile_worker._private_tasks k
      WHERE k.id = j.task_id AND k.identifier = $1 AND j.locked_at IS NULL
        AND j.last_error IS NOT NULL AND j.attempts < j.max_attempts`,
    [task],
  );
  return rowCount ?? 0;
}
