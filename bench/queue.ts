import type pg from 'pg';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { BENCH } from './breakdown.ts';
import { type LoadOptions, measure, type Row } from './harness.ts';

/**
 * Jobs the worker has to run now: due (not scheduled for later, as the next cron tick or a retry's
 * backoff are) and not permanently failed. A job being run counts until it is done.
 */
const READY_JOBS = `SELECT ${BENCH} count(*)::int AS n FROM ${QUEUED_JOBS} j
  WHERE j.run_at <= now() AND (j.attempts < j.max_attempts OR j.locked_at IS NOT NULL)`;

async function readyJobs(pool: pg.Pool): Promise<number> {
  return (await pool.query<{ n: number }>(READY_JOBS)).rows[0]!.n;
}

/**
 * Waits until the job queue is empty and says how long that took and how deep it was when asked:
 * the work a load left behind, which throughput must be counted over.
 */
export async function waitForDrain(
  pool: pg.Pool,
  timeoutMs = 600_000,
): Promise<{ depth: number; seconds: number }> {
  const started = performance.now();
  const depth = await readyJobs(pool);
  for (let left = depth; left > 0; left = await readyJobs(pool)) {
    if (performance.now() - started > timeoutMs) throw new Error(`job queue not drained: ${left} jobs left`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { depth, seconds: (performance.now() - started) / 1000 };
}

/**
 * Orders created as fast as the project takes them for BENCH_SUSTAINED_SECONDS (default 60), then
 * the queue left behind: it must hold no more than a few seconds of work.
 */
export async function sustainedCreation(
  pool: pg.Pool,
  load: LoadOptions,
): Promise<{ row: Row; note: string }> {
  const seconds = Number(process.env.BENCH_SUSTAINED_SECONDS ?? 60);
  await waitForDrain(pool);
  let drain = { depth: 0, seconds: 0 };
  const result = await measure(load, seconds, async () => {
    drain = await waitForDrain(pool);
    return drain.seconds;
  });
  return {
    row: {
      scenario: `POST /orders for ${seconds} s, then queue drain`,
      result,
      check: { target: 'drain ≤ 5 s', met: drain.seconds <= 5 },
    },
    note:
      `sustained creation: ${result.requestsPerSecond.toFixed(0)} orders/s for ${seconds} s left ${drain.depth} jobs ready, ` +
      `drained in ${drain.seconds.toFixed(1)} s (${result.drained!.requestsPerSecond.toFixed(0)} orders/s counted over both)`,
  };
}
