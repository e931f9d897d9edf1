import type pg from 'pg';
import { addJobSql, QUEUED_JOBS } from './queue-sql.ts';

/** The pool, or a client inside a transaction (a job added there exists when it commits). */
type Queryable = pg.Pool | pg.PoolClient | pg.Client;

interface AddJobOptions {
  runAt?: Date;
  queueName?: string;
  jobKey?: string;
  maxAttempts?: number;
}

/** Which jobs: every member given must match. */
interface JobFilter {
  task?: string;
  /** The payload contains these members (JSON containment). */
  payloadContains?: Record<string, unknown>;
  ids?: readonly string[];
  key?: string;
}

interface QueuedJob {
  id: string;
  queueName: string | null;
  task: string;
  payload: unknown;
  runAt: Date;
  attempts: number;
  maxAttempts: number;
  lastError: string | null;
  key: string | null;
  lockedAt: Date | null;
  lockedBy: string | null;
}

/** How the queue stands, for the jobs of a filter. */
interface QueueFigures {
  /** Every job still in the queue, failed ones included. */
  jobs: number;
  /** Still to run or running (not failed for good). */
  live: number;
  /** To run now or running: due, and not failed for good (a running job counts until done). */
  ready: number;
  running: number;
  /** Out of attempts and not running: kept by the queue, never run again. */
  failed: number;
  /** The due time of the oldest live job. */
  oldestDueAt: Date | null;
}

/** One task's backlog, for the metrics. */
export interface TaskDepth {
  task: string;
  /** Due and waiting for a worker. */
  ready: number;
  /** Waiting for a later time (retries after a backoff, scheduled jobs). */
  scheduled: number;
  running: number;
  /** Out of attempts: kept by the queue, never run again. */
  failed: number;
  /** How long the oldest ready job has been due, in seconds; 0 when none is. */
  oldestReadyAgeSeconds: number;
}

function where(filter: JobFilter, values: unknown[]): string {
  const conditions = ['true'];
  if (filter.task !== undefined) conditions.push(`j.task = $${values.push(filter.task)}`);
  if (filter.payloadContains !== undefined)
    conditions.push(`j.payload::jsonb @> $${values.push(JSON.stringify(filter.payloadContains))}::jsonb`);
  if (filter.ids !== undefined) conditions.push(`j.id = ANY($${values.push(filter.ids)}::bigint[])`);
  if (filter.key !== undefined) conditions.push(`j.key = $${values.push(filter.key)}`);
  return conditions.join(' AND ');
}

/** The queue, on one connection: what the services, the jobs and the operator tools use of it. */
export interface JobQueue {
  /** Adds a job (replacing the waiting one with the same key); returns its id. */
  add(task: string, payload: Record<string, unknown>, options?: AddJobOptions): Promise<string>;
  /** The name of a job queue, by the id a job carries (`helpers.job.job_queue_id`). */
  queueName(queueId: number): Promise<string | null>;
  /**
   * Jobs of `tasks` held longer than `graceMs`: their worker died (a process killed mid-job keeps
   * its row locks only while its connection lives, but graphile-worker's job lock lasts 4 hours).
   * Each worker runs one job at a time, so unlocking the workers holding them frees just these
   * jobs, which run again at once (they are all safe to run twice). Returns how many were freed.
   */
  unlockStalled(tasks: readonly string[], graceMs: number): Promise<number>;
  /** These workers (graphile-worker's ids) are alive: their heartbeat (worker_heartbeats). */
  beat(workerIds: readonly string[]): Promise<void>;
  /** These workers stopped cleanly: no heartbeat to judge any more. */
  forgetWorkers(workerIds: readonly string[]): Promise<void>;
  /**
   * The jobs of workers whose heartbeat stopped more than `staleMs` ago (their process was killed)
   * are freed, to run again at once; those workers' heartbeats are removed. A worker that still
   * beats keeps its jobs, however long they run. Returns how many jobs were freed.
   */
  unlockDeadWorkers(staleMs: number): Promise<number>;
  /**
   * Empty per-order queues (queue-sql.ts orderQueueName, `prefix:<tracking ref>`) of orders in
   * one of `finishedStatuses`, which will not move again: graphile-worker keeps a queue's row
   * after its last job. Only those, never a queue a new job could still be added to while this runs.
   */
  deleteFinishedOrderQueues(prefix: string, finishedStatuses: readonly string[]): Promise<number>;
  /** Counts and the oldest due time, for the jobs of `filter` (all by default). */
  figures(filter?: JobFilter): Promise<QueueFigures>;
  /** Every task the queue knows, with its backlog (one scan of the jobs, grouped by task). */
  depthByTask(): Promise<TaskDepth[]>;
  /** The jobs of `filter`, oldest due first. */
  list(filter?: JobFilter, limit?: number): Promise<QueuedJob[]>;
  /**
   * Removes the jobs of `filter` that no worker holds (or held ones too, with `evenLocked`) and
   * returns them: claimed, so no worker runs them afterwards.
   */
  remove(
    filter: JobFilter,
    options?: {
      evenLocked?: boolean;
    },
  ): Promise<
    Array<{
      id: string;
      task: string;
      payload: unknown;
    }>
  >;
}

/**
 * The job queue (graphile-worker's tables) beyond what the worker runner does itself: enqueueing
 * on a connection (inside the caller's transaction when it is one), per-order queues, stalled-job
 * recovery and inspection. Pinned to the installed release by test/queue-contract.test.ts.
 */
export function jobQueueOn(db: Queryable): JobQueue {
  return {
    /** Adds a job (replacing the waiting one with the same key); returns its id. */
    async add(task: string, payload: Record<string, unknown>, options: AddJobOptions = {}): Promise<string> {
      const values: unknown[] = [task, JSON.stringify(payload)];
      const param = (value: unknown) => `$${values.push(value)}`;
      const call = addJobSql({
        task: '$1',
        payload: '$2::json',
        ...(options.queueName !== undefined && { queueName: `${param(options.queueName)}::text` }),
        ...(options.runAt !== undefined && { runAt: `${param(options.runAt)}::timestamptz` }),
        ...(options.jobKey !== undefined && { jobKey: `${param(options.jobKey)}::text` }),
        ...(options.maxAttempts !== undefined && { maxAttempts: `${param(options.maxAttempts)}::int` }),
      });
      const { rows } = await db.query<{ id: string }>(`SELECT (${call}).id::text AS id`, values);
      return rows[0]!.id;
    },

    /** The name of a job queue, by the id a job carries (`helpers.job.job_queue_id`). */
    async queueName(queueId: number): Promise<string | null> {
      const { rows } = await db.query<{ queue_name: string }>(
        'SELECT queue_name FROM graphile_worker._private_job_queues WHERE id = $1',
        [queueId],
      );
      return rows[0]?.queue_name ?? null;
    },

    /**
     * Jobs of `tasks` held longer than `graceMs`: their worker died (a process killed mid-job keeps
     * its row locks only while its connection lives, but graphile-worker's job lock lasts 4 hours).
     * Each worker runs one job at a time, so unlocking the workers holding them frees just these
     * jobs, which run again at once (they are all safe to run twice). Returns how many were freed.
     */
    async unlockStalled(tasks: readonly string[], graceMs: number): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `WITH stalled AS (
           SELECT DISTINCT locked_by FROM graphile_worker.jobs
            WHERE task_identifier = ANY($1::text[]) AND locked_by IS NOT NULL
              AND locked_at < now() - make_interval(secs => $2::double precision / 1000)
              -- A worker that beats is alive: its job is long, not stalled.
              AND NOT EXISTS (SELECT 1 FROM worker_heartbeats h WHERE h.worker_id = locked_by)
         ), unlocked AS (
           SELECT graphile_worker.force_unlock_workers(array_agg(locked_by)) FROM stalled HAVING count(*) > 0
         )
         SELECT (SELECT count(*) FROM stalled)::int AS n, (SELECT count(*) FROM unlocked) AS done`,
        [tasks, graceMs],
      );
      return rows[0]?.n ?? 0;
    },

    async beat(workerIds: readonly string[]): Promise<void> {
      if (workerIds.length === 0) return;
      await db.query(
        `INSERT INTO worker_heartbeats (worker_id, beat_at) SELECT unnest($1::text[]), now()
         ON CONFLICT (worker_id) DO UPDATE SET beat_at = excluded.beat_at`,
        [workerIds],
      );
    },

    async forgetWorkers(workerIds: readonly string[]): Promise<void> {
      if (workerIds.length === 0) return;
      await db.query('DELETE FROM worker_heartbeats WHERE worker_id = ANY($1::text[])', [workerIds]);
    },

    async unlockDeadWorkers(staleMs: number): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `WITH dead AS (
           DELETE FROM worker_heartbeats
            WHERE beat_at < now() - make_interval(secs => $1::double precision / 1000)
           RETURNING worker_id
         ), held AS (
           SELECT count(*)::int AS n FROM graphile_worker.jobs j JOIN dead ON dead.worker_id = j.locked_by
         ), unlocked AS (
           SELECT graphile_worker.force_unlock_workers(array_agg(worker_id)) FROM dead HAVING count(*) > 0
         )
         SELECT (SELECT n FROM held) AS n, (SELECT count(*) FROM unlocked) AS done`,
        [staleMs],
      );
      return rows[0]?.n ?? 0;
    },

    /**
     * Empty per-order queues (queue-sql.ts orderQueueName, `prefix:<tracking ref>`) of orders in
     * one of `finishedStatuses`, which will not move again: graphile-worker keeps a queue's row
     * after its last job. Only those, never a queue a new job could still be added to while this runs.
     */
    async deleteFinishedOrderQueues(prefix: string, finishedStatuses: readonly string[]): Promise<number> {
      const { rowCount } = await db.query(
        `DELETE FROM graphile_worker._private_job_queues q
          USING orders o
          WHERE left(q.queue_name, length($1) + 1) = $1 || ':' AND q.locked_at IS NULL
            AND o.tracking_ref = substr(q.queue_name, length($1) + 2) AND o.status = ANY($2::text[])
            AND NOT EXISTS (SELECT 1 FROM graphile_worker._private_jobs j WHERE j.job_queue_id = q.id)`,
        [prefix, finishedStatuses],
      );
      return rowCount ?? 0;
    },

    /** Counts and the oldest due time, for the jobs of `filter` (all by default). */
    async figures(filter: JobFilter = {}): Promise<QueueFigures> {
      const values: unknown[] = [];
      const { rows } = await db.query<QueueFigures>(
        `SELECT count(*)::int AS jobs,
                count(*) FILTER (WHERE j.attempts < j.max_attempts)::int AS live,
                count(*) FILTER (WHERE j.run_at <= now()
                                   AND (j.attempts < j.max_attempts OR j.locked_at IS NOT NULL))::int AS ready,
                count(*) FILTER (WHERE j.locked_at IS NOT NULL)::int AS running,
                count(*) FILTER (WHERE j.attempts >= j.max_attempts AND j.locked_at IS NULL)::int AS failed,
                min(j.run_at) FILTER (WHERE j.attempts < j.max_attempts) AS "oldestDueAt"
           FROM ${QUEUED_JOBS} j WHERE ${where(filter, values)}`,
        values,
      );
      return rows[0]!;
    },

    async depthByTask(): Promise<TaskDepth[]> {
      const waiting = 'j.locked_at IS NULL AND j.attempts < j.max_attempts';
      const { rows } = await db.query<TaskDepth>(
        `SELECT k.identifier AS task,
                count(j.id) FILTER (WHERE ${waiting} AND j.run_at <= now())::int AS ready,
                count(j.id) FILTER (WHERE ${waiting} AND j.run_at > now())::int AS scheduled,
                count(j.id) FILTER (WHERE j.locked_at IS NOT NULL)::int AS running,
                count(j.id) FILTER (WHERE j.locked_at IS NULL AND j.attempts >= j.max_attempts)::int AS failed,
                coalesce(extract(epoch FROM now() - min(j.run_at) FILTER (WHERE ${waiting} AND j.run_at <= now())), 0)::float8
                  AS "oldestReadyAgeSeconds"
           FROM graphile_worker._private_tasks k
           LEFT JOIN graphile_worker._private_jobs j ON j.task_id = k.id
          GROUP BY k.identifier ORDER BY k.identifier`,
      );
      return rows;
    },

    /** The jobs of `filter`, oldest due first. */
    async list(filter: JobFilter = {}, limit = 100): Promise<QueuedJob[]> {
      const values: unknown[] = [];
      const { rows } = await db.query<QueuedJob>(
        `SELECT j.id::text, q.queue_name AS "queueName", j.task, j.payload, j.run_at AS "runAt", j.attempts,
                j.max_attempts AS "maxAttempts", j.last_error AS "lastError", j.key,
                j.locked_at AS "lockedAt", j.locked_by AS "lockedBy"
           FROM ${QUEUED_JOBS} j LEFT JOIN graphile_worker._private_job_queues q ON q.id = j.queue_id
          WHERE ${where(filter, values)}
          ORDER BY j.run_at, j.id LIMIT $${values.push(limit)}`,
        values,
      );
      return rows;
    },

    /**
     * Removes the jobs of `filter` that no worker holds (or held ones too, with `evenLocked`) and
     * returns them: claimed, so no worker runs them afterwards.
     */
    async remove(
      filter: JobFilter,
      options: { evenLocked?: boolean } = {},
    ): Promise<Array<{ id: string; task: string; payload: unknown }>> {
      const values: unknown[] = [];
      const { rows } = await db.query<{ id: string; task: string; payload: unknown }>(
        `DELETE FROM graphile_worker._private_jobs d
          USING ${QUEUED_JOBS} j
          WHERE d.id = j.id AND ${where(filter, values)}
            AND ($${values.push(options.evenLocked === true)} OR d.locked_at IS NULL)
          RETURNING d.id::text, j.task, d.payload`,
        values,
      );
      return rows;
    },
  };
}
