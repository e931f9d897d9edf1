/**
 * What a job spec is (src/jobs/job-names.ts, and each shop platform's src/connectors/<platform>/jobs/names.ts),
 * with the payload versions and attempts shared by every job of a kind. A leaf: it imports nothing.
 */
export interface JobSpec<F extends string = string> {
  readonly name: string;
  /** A worker of another release refuses a payload version it does not know: the queue retries it later. */
  readonly payloadVersion: number;
  /** The payload's fields (strings), beside `v`. */
  readonly fields: readonly F[];
  /** Set when enqueued; the queue's default (25) when absent. */
  readonly maxAttempts?: number;
  /**
   * Longer than this job ever runs: one held longer lost its worker (a process killed mid-job), and
   * `recover_stalled_jobs` runs it again instead of waiting out the queue's 4-hour lock. Only for
   * jobs that are safe to run twice.
   */
  readonly stalledAfterMs?: number;
}

/** A job's payload as enqueued: its version and its fields (strings). */
export type JobPayload<F extends string = never> = { v: number } & Record<F, string>;

export const spec = <const F extends string>(job: JobSpec<F>): JobSpec<F> => job;

/** Minutes, not hours: longer than any job with outside calls (a few of at most 10 s each) may run. */
export const STALLED_JOB_GRACE_MS = 5 * 60 * 1000;

/** Payload version of every outbox subscriber's event job: `{ v: 1, event_id }`. */
export const OUTBOX_JOB_PAYLOAD_VERSION = 1;
/** Attempts of an outbox subscriber's event job (the queue's backoff: about three days). */
export const OUTBOX_JOB_MAX_ATTEMPTS = 25;

/** Payload version and attempts of every inbox job: `{ v: 1, inbox_id }`. */
export const INBOX_JOB_PAYLOAD_VERSION = 1;
export const INBOX_JOB_MAX_ATTEMPTS = 10;

/** An outbox subscriber's event job (`{ v: 1, event_id }`), safe to run again when stalled. */
export const outboxJobSpec = (name: string) =>
  spec({
    name,
    payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
    fields: ['event_id'],
    stalledAfterMs: STALLED_JOB_GRACE_MS,
  });

/** An inbox job (`{ v: 1, inbox_id }`), safe to run again when stalled. */
export const inboxJobSpec = (name: string) =>
  spec({
    name,
    payloadVersion: INBOX_JOB_PAYLOAD_VERSION,
    fields: ['inbox_id'],
    maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
    stalledAfterMs: STALLED_JOB_GRACE_MS,
  });
