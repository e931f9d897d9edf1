import { tracing } from '../infra/telemetry/tracing.ts';
import type { JobHelpers } from './job.ts';

type Task = (payload: unknown, helpers: JobHelpers) => Promise<void>;

/** Told each job run's outcome (the metrics: src/infra/metrics/job-metrics.ts). */
export interface JobObserver {
  finished(task: string, outcome: 'succeeded' | 'failed', seconds: number): void;
}

/**
 * The task list with each run timed and its outcome told to `observer`, and, when tracing is on,
 * run in a span of its own (`job <task>`), so its queries and outbound calls share one trace.
 * The list as it was when neither is wanted.
 */
export function instrumentTasks<L extends Record<string, Task>>(tasks: L, observer?: JobObserver): L {
  const traces = tracing();
  if (!observer && !traces) return tasks;
  const wrapped: Record<string, Task> = {};
  for (const [task, run] of Object.entries(tasks)) {
    const timed: Task = async (payload, helpers) => {
      const started = performance.now();
      let outcome: 'succeeded' | 'failed' = 'failed';
      try {
        await run(payload, helpers);
        outcome = 'succeeded';
      } finally {
        observer?.finished(task, outcome, (performance.now() - started) / 1000);
      }
    };
    wrapped[task] = traces
      ? (payload, helpers) =>
          traces.inSpan(`job ${task}`, { 'job.task': task }, () => timed(payload, helpers))
      : timed;
  }
  return wrapped as L;
}
