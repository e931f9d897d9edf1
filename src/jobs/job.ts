import type { JobPayload, JobSpec } from './job-names.ts';

/**
 * What a job sees of the queue while it runs: the parts of graphile-worker's helpers our jobs use,
 * declared here so a job depends on the queue's contract, not on the library.
 */
export interface JobHelpers {
  logger: { debug(message: string): void; info(message: string): void; warn(message: string): void };
  job: {
    id: string;
    payload: unknown;
    /** The queue's id when the job has one (src/infra/queue/job-queue.ts queueName). */
    job_queue_id: number | null;
    attempts: number;
    max_attempts: number;
  };
  addJob(
    name: string,
    payload: JobPayload & Record<string, unknown>,
    options?: {
      runAt?: Date;
      maxAttempts?: number;
      queueName?: string;
      jobKey?: string;
      jobKeyMode?: 'replace' | 'preserve_run_at';
    },
  ): Promise<unknown>;
}

/**
 * One kind of job: its spec (src/jobs/job-names.ts: name, payload, attempts) and what it does
 * (calling services, never repositories) with `C`, the narrow context it declares: the parts of the
 * composition root it uses. Each job is one file under src/jobs/, listed in index.ts.
 */
export interface Job<F extends string = string, C = unknown> extends JobSpec<F> {
  /** Recurring jobs: crontab time fields and options (`0 * * * * ?max=3`); at most once per slot. */
  schedule?: string;
  run(context: C, payload: Record<F, string>, helpers: JobHelpers): Promise<void>;
}

export const defineJob = <const F extends string, C>(job: Job<F, C>): Job<F, C> => job;

/** The payload of `job`, checked: version first, then each field. Throwing lets the queue retry later. */
export function readPayload<F extends string>(job: JobSpec<F>, payload: unknown): Record<F, string> {
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
