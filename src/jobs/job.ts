import type { JobHelpers } from 'graphile-worker';
import type { Deps } from '../deps.ts';

/**
 * One kind of job: its queue name, the version of its payload, and what it does (calling
 * services, never repositories). Each job is one file under src/jobs/, listed in index.ts; its name
 * is written nowhere else (SQL that enqueues it takes the name from here).
 */
export interface Job<F extends string = string> {
  name: string;
  /** A worker of another release refuses a payload version it does not know: the queue retries it later. */
  payloadVersion: number;
  /** The payload's fields (strings), beside `v`. */
  fields: readonly F[];
  /** Recurring jobs: crontab time fields and options (`0 * * * * ?max=3`); at most once per slot. */
  schedule?: string;
  maxAttempts?: number;
  /**
   * Longer than this job ever runs: one held longer lost its worker (a process killed mid-job), and
   * `recover_stalled_jobs` runs it again instead of waiting out graphile-worker's 4-hour lock. Only
   * for jobs that are safe to run twice.
   */
  stalledAfterMs?: number;
  run(deps: Deps, payload: Record<F, string>, helpers: JobHelpers): Promise<void>;
}

/** Minutes, not hours: longer than any job with outside calls (a few of at most 10 s each) may run. */
export const STALLED_JOB_GRACE_MS = 5 * 60 * 1000;

export const defineJob = <const F extends string>(job: Job<F>): Job<F> => job;

/** The payload of `job`, checked: version first, then each field. Throwing lets the queue retry later. */
export function readPayload<F extends string>(job: Job<F>, payload: unknown): Record<F, string> {
  const p = (payload ?? {}) as { v?: unknown } & Record<string, unknown>;
  if (job.fields.length > 0 && p.v !== job.payloadVersion)
    throw new Error(`${job.name}: unsupported payload version ${JSON.stringify(p.v)}`);
  const read = {} as Record<F, string>;
  for (const field of job.fields) {
    const value = p[field];
    if (typeof value !== 'string' || value === '')
      throw new Error(`${job.name}: payload.${field} is missing`);
    read[field] = value;
  }
  return read;
}
