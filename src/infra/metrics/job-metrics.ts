import { Gauge, Histogram, type Registry } from 'prom-client';
import type { TaskDepth } from '../queue/job-queue.ts';
import { PREFIX } from './names.ts';
import type { SourceReads } from './source-reads.ts';

/** Seconds: jobs run from a few milliseconds (a fan-out) to a minute (a month's invoices). */
const JOB_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300];

/** Each run of a job as it ends, by task and outcome, with its duration. */
export function jobRunMetrics(registry: Registry) {
  const duration = new Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: 'Job runs, by task and outcome (succeeded, failed: retried by the queue), and how long each took',
    labelNames: ['task', 'outcome'] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  return {
    finished(task: string, outcome: 'succeeded' | 'failed', seconds: number): void {
      duration.labels(task, outcome).observe(seconds);
    },
  };
}

/**
 * The queue's backlog per task, read from the queue at scrape time (`depth`: cached by the caller).
 */
export function queueDepthMetrics(
  registry: Registry,
  depth: () => Promise<TaskDepth[]>,
  reads: SourceReads,
): void {
  // One read feeds both gauges: prom-client collects each metric before reading it, and the two
  // collects of one scrape share a single round (and the caller's cache between scrapes).
  let round: Promise<void> | null = null;
  const collectOnce = () => {
    round ??= fill().finally(() => {
      round = null;
    });
    return round;
  };
  const jobs = new Gauge({
    name: `${PREFIX}job_queue_jobs`,
    help: 'Jobs in the queue, by task and state (ready: due and waiting; scheduled: due later; running; failed: out of attempts)',
    labelNames: ['task', 'state'] as const,
    registers: [registry],
    collect: collectOnce,
  });
  const oldest = new Gauge({
    name: `${PREFIX}job_queue_oldest_ready_age_seconds`,
    help: 'How long the oldest due job of the task has been waiting for a worker (0: none waiting)',
    labelNames: ['task'] as const,
    registers: [registry],
    collect: collectOnce,
  });
  async function fill(): Promise<void> {
    const rows = await reads.read('job_queue', depth);
    jobs.reset();
    oldest.reset();
    for (const row of rows ?? []) {
      jobs.labels(row.task, 'ready').set(row.ready);
      jobs.labels(row.task, 'scheduled').set(row.scheduled);
      jobs.labels(row.task, 'running').set(row.running);
      jobs.labels(row.task, 'failed').set(row.failed);
      oldest.labels(row.task).set(row.oldestReadyAgeSeconds);
    }
  }
}
