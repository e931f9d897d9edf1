import type { Queryable } from '../pool.ts';

/** What the service asks of graphile-worker's tables beyond enqueueing. */
export function jobQueueRepository(db: Queryable) {
  return {
    /**
     * Jobs of `tasks` held longer than `graceMs`: their worker died (a process killed mid-job keeps
     * its row locks only while its connection lives, but graphile-worker's job lock lasts 4 hours).
     * Each worker runs one job at a time, so unlocking the workers holding them frees just these
     * jobs, which run again at once (they are all safe to run twice). Returns how many were freed.
     */
    async unlockStalledJobs(tasks: readonly string[], graceMs: number): Promise<number> {
      const { rows } = await db.query<{ n: number }>(
        `WITH stalled AS (
           SELECT DISTINCT locked_by FROM graphile_worker.jobs
            WHERE task_identifier = ANY($1::text[]) AND locked_by IS NOT NULL
              AND locked_at < now() - make_interval(secs => $2::double precision / 1000)
         ), unlocked AS (
           SELECT graphile_worker.force_unlock_workers(array_agg(locked_by)) FROM stalled HAVING count(*) > 0
         )
         SELECT (SELECT count(*) FROM stalled)::int AS n, (SELECT count(*) FROM unlocked) AS done`,
        [tasks, graceMs],
      );
      return rows[0]?.n ?? 0;
    },
  };
}

export type JobQueueRepository = ReturnType<typeof jobQueueRepository>;
