/**
 * The job queue's SQL, for statements that enqueue or look at jobs together with the change that
 * causes them. With job-queue.ts, the only code that knows graphile-worker's schema (its functions
 * and its private tables, which change between its releases: test/queue-contract.test.ts pins them).
 */

/** An `add_job` call; each member is a SQL expression (a parameter, a column, a literal). */
interface AddJobCall {
  task: string;
  /** JSON. */
  payload: string;
  /** Jobs of one queue run one at a time, oldest due first. */
  queueName?: string;
  runAt?: string;
  /** A second job with the same key replaces the waiting one (its payload and due time). */
  jobKey?: string;
  /** `'preserve_run_at'`: the replaced job keeps its due time. */
  jobKeyMode?: string;
  maxAttempts?: string | number;
}

/** `graphile_worker.add_job(...)`: to SELECT in the statement (or CTE) that makes the change. */
export function addJobSql(call: AddJobCall): string {
  const args = [call.task, call.payload];
  if (call.queueName !== undefined) args.push(`queue_name := ${call.queueName}`);
  if (call.runAt !== undefined) args.push(`run_at := ${call.runAt}`);
  if (call.jobKey !== undefined) args.push(`job_key := ${call.jobKey}`);
  if (call.jobKeyMode !== undefined) args.push(`job_key_mode := ${call.jobKeyMode}`);
  if (call.maxAttempts !== undefined) args.push(`max_attempts := ${call.maxAttempts}`);
  return `graphile_worker.add_job(${args.join(', ')})`;
}

/** One job of an `add_jobs` batch: SQL expressions over the rows of `from`. */
interface JobSpecColumns {
  task: string;
  /** JSON. */
  payload: string;
  queueName?: string;
  maxAttempts?: number;
}

/**
 * `graphile_worker.add_jobs(...)` over a set of rows: one call for every job of a statement, as a
 * relation (one row per job enqueued) for a CTE. `add_job` once per row costs each job a PL/pgSQL
 * call with its five statements — about 0.5 ms, against 0.03 ms a job in one `add_jobs` (measured on
 * 2,000 jobs): the difference was most of PostgreSQL's time creating an order with subscribers.
 * `from`: a FROM clause (without the keyword), maybe with joins and a WHERE.
 */
export function addJobsSql(spec: JobSpecColumns, from: string): string {
  const queue = spec.queueName ?? 'NULL';
  const attempts = spec.maxAttempts === undefined ? 'NULL' : `${spec.maxAttempts}::smallint`;
  return `SELECT jobs.id FROM graphile_worker.add_jobs(ARRAY(
      SELECT ROW(${spec.task}, ${spec.payload}, ${queue}, NULL, ${attempts}, NULL, NULL, NULL)::graphile_worker.job_spec
        FROM ${from})) AS jobs`;
}

/**
 * The queued jobs as a relation to put in a FROM clause (`FROM ${QUEUED_JOBS} j`), with stable
 * column names: id, queue_id, task, payload (json), run_at, attempts, max_attempts, last_error, key,
 * locked_at, locked_by. A job is gone once done; one with attempts = max_attempts failed for good.
 */
export const QUEUED_JOBS = `(SELECT j.id, j.job_queue_id AS queue_id, k.identifier AS task, j.payload, j.run_at,
    j.attempts, j.max_attempts, j.last_error, j.key, j.locked_at, j.locked_by
   FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks k ON k.id = j.task_id)`;

/**
 * One queue per delivery order and subscriber (`<platform>:DLV-…`): the order's moves reach the shop
 * one at a time and in the order they happened, while different orders still sync in parallel.
 * Dropped once the order is finished (job-queue.ts deleteFinishedOrderQueues).
 */
export const orderQueueName = (prefix: string, trackingRef: string): string => `${prefix}:${trackingRef}`;

/**
 * A DELETE (for a CTE) that takes up to `limit` waiting jobs of `task` out of the queue — due, held
 * by no worker, not failed for good — and returns their `payload` (json): the statement that does
 * their work in bulk claims them, so no worker runs them afterwards, and if that statement fails
 * they are still queued. `task` and `limit` are SQL expressions.
 */
export function takeWaitingJobsSql(task: string, limit: string): string {
  return `DELETE FROM graphile_worker._private_jobs taken
   WHERE taken.id IN (
     SELECT j.id FROM graphile_worker._private_jobs j
       JOIN graphile_worker._private_tasks k ON k.id = j.task_id
      WHERE k.identifier = ${task} AND j.locked_at IS NULL AND j.run_at <= now()
        AND j.attempts < j.max_attempts
      ORDER BY j.run_at LIMIT ${limit}
      FOR UPDATE OF j SKIP LOCKED)
     AND taken.locked_at IS NULL
   RETURNING taken.payload`;
}
