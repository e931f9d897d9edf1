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

/** One job of a statement's batch: SQL expressions over the rows of `from`. */
interface JobSpecColumns {
  task: string;
  /** JSON. */
  payload: string;
  queueName?: string;
  maxAttempts?: number;
}

/** The CTEs that enqueue a statement's jobs, and the expression that counts them. */
interface EnqueueSql {
  /** CTE definitions (comma-separated) for the statement's top-level WITH. */
  ctes: string;
  /** A scalar subquery: how many jobs were enqueued. The main query must select it: the CTEs run then. */
  count: string;
}

/**
 * Enqueues one job per row of `from` (a FROM clause, without the keyword), in the statement that
 * makes the change. graphile-worker's `add_job` and `add_jobs` are PL/pgSQL functions costing about
 * 0.6 ms a call (five statements and a NOTIFY, measured on this machine) — more than the change
 * itself for a status change or a scan, and once per row when called per row. So jobs of a known
 * task without a queue (the outbox's webhook fan-outs and notifications) are inserted into the
 * jobs table as `add_jobs` inserts them (its defaults: now, priority 0, 25 attempts), with its
 * NOTIFY, once per statement; any other job (a queue, which may need its row; a task the queue has
 * never seen) goes through `add_jobs`, called only when there is one.
 * `name` names the CTEs (`name`, `name_spec`, …).
 */
export function enqueueJobsSql(name: string, spec: JobSpecColumns, from: string): EnqueueSql {
  const queue = spec.queueName ?? 'NULL';
  const attempts = spec.maxAttempts === undefined ? 'NULL' : String(spec.maxAttempts);
  const slowPath = `s.queue_name IS NOT NULL
       OR NOT EXISTS (SELECT 1 FROM graphile_worker._private_tasks t WHERE t.identifier = s.task)`;
  const ctes = `${name}_spec AS MATERIALIZED (
      SELECT ${spec.task}::text AS task, (${spec.payload})::json AS payload, (${queue})::text AS queue_name,
             (${attempts})::smallint AS max_attempts
        FROM ${from}
    ), ${name}_direct AS (
      INSERT INTO graphile_worker._private_jobs (task_id, payload, max_attempts)
      SELECT t.id, s.payload, coalesce(s.max_attempts, 25::smallint)
        FROM ${name}_spec s JOIN graphile_worker._private_tasks t ON t.identifier = s.task
       WHERE s.queue_name IS NULL
      RETURNING id
    ), ${name}_other AS (
      SELECT (SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
               SELECT ROW(s.task, s.payload, s.queue_name, NULL, s.max_attempts, NULL, NULL, NULL)::graphile_worker.job_spec
                 FROM ${name}_spec s WHERE ${slowPath}))) AS n
       WHERE EXISTS (SELECT 1 FROM ${name}_spec s WHERE ${slowPath})
    ), ${name}_inserted AS (
      -- pg_notify makes this CTE volatile, so it is computed whole (its NOTIFY too) once read.
      SELECT d.n, CASE WHEN d.n > 0
               THEN pg_notify('jobs:insert', '{"r":' || random()::text || ',"count":' || d.n::text || '}') END
        FROM (SELECT count(*) AS n FROM ${name}_direct) d
    ), ${name} AS (
      SELECT (SELECT n FROM ${name}_inserted) + coalesce((SELECT n FROM ${name}_other), 0) AS n
    )`;
  return { ctes, count: `(SELECT n FROM ${name})` };
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
 *
 * In no particular order: the first `limit` found. Ordered by run_at, each take read and sorted
 * the whole backlog (24 ms of 20,000 waiting fan-outs for 500 taken, once per statement, so a
 * backlog cost its square); unordered, the scan stops at `limit`. Nothing waits for ever: the job
 * runner itself runs the oldest job first, and that run takes the others.
 */
export function takeWaitingJobsSql(task: string, limit: string): string {
  return `DELETE FROM graphile_worker._private_jobs taken
   WHERE taken.id IN (
     SELECT j.id FROM graphile_worker._private_jobs j
      WHERE j.task_id = (SELECT k.id FROM graphile_worker._private_tasks k WHERE k.identifier = ${task})
        AND j.locked_at IS NULL AND j.run_at <= now() AND j.attempts < j.max_attempts
      LIMIT ${limit}
      FOR UPDATE OF j SKIP LOCKED)
     AND taken.locked_at IS NULL
   RETURNING taken.payload`;
}
