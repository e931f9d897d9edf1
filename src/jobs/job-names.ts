/**
 * What the code that enqueues a job and the job's handler agree on: its name, its payload and how
 * the queue treats it. A leaf (it imports nothing), so SQL that enqueues a job in a change's
 * statement names it from here without importing the handler, and the handler (src/jobs/*.ts)
 * spreads its spec into its definition: the name is written nowhere else.
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

const spec = <const F extends string>(job: JobSpec<F>): JobSpec<F> => job;

/** Minutes, not hours: longer than any job with outside calls (a few of at most 10 s each) may run. */
const STALLED_JOB_GRACE_MS = 5 * 60 * 1000;

/** Payload version of every outbox subscriber's event job: `{ v: 1, event_id }`. */
export const OUTBOX_JOB_PAYLOAD_VERSION = 1;
/** Attempts of an outbox subscriber's event job (the queue's backoff: about three days). */
export const OUTBOX_JOB_MAX_ATTEMPTS = 25;

// Recurring jobs (their schedule is the handler's business).
export const CLEANUP_IDEMPOTENCY_KEYS_SPEC = spec({
  name: 'idempotency_cleanup',
  payloadVersion: 1,
  fields: [],
});
export const CLEANUP_ACCOUNTS_SPEC = spec({ name: 'account_cleanup', payloadVersion: 1, fields: [] });
export const ISSUE_DUE_INVOICES_SPEC = spec({ name: 'invoices_issue_due', payloadVersion: 1, fields: [] });
export const CLEANUP_ORDER_QUEUES_SPEC = spec({
  name: 'cleanup_order_queues',
  payloadVersion: 1,
  fields: [],
});
export const RECOVER_STALLED_JOBS_SPEC = spec({
  name: 'recover_stalled_jobs',
  payloadVersion: 1,
  fields: [],
});
export const REFRESH_ORDER_JSON_SPEC = spec({ name: 'refresh_order_json', payloadVersion: 1, fields: [] });
export const WEBHOOKS_RECOVER_SPEC = spec({ name: 'webhooks_recover', payloadVersion: 1, fields: [] });
export const PRESTASHOP_POLL_SPEC = spec({ name: 'prestashop_poll', payloadVersion: 1, fields: [] });
export const WOOCOMMERCE_POLL_SPEC = spec({ name: 'woocommerce_poll', payloadVersion: 1, fields: [] });

// Outbox subscribers' jobs, one per event (src/events/subscribers.ts).
export const WEBHOOKS_FAN_OUT_SPEC = spec({
  name: 'webhooks_fan_out',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const SHOPIFY_SYNC_ORDER_SPEC = spec({
  name: 'shopify_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const PRESTASHOP_SYNC_ORDER_SPEC = spec({
  name: 'prestashop_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const WOOCOMMERCE_SYNC_ORDER_SPEC = spec({
  name: 'woocommerce_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});

// A shop's received order or webhook, enqueued with its inbox row (connector-sync-repository receive).
/** Payload version and attempts of every inbox job: `{ v: 1, inbox_id }`. */
export const INBOX_JOB_PAYLOAD_VERSION = 1;
export const INBOX_JOB_MAX_ATTEMPTS = 10;
export const SHOPIFY_PROCESS_WEBHOOK_SPEC = spec({
  name: 'shopify_process_webhook',
  payloadVersion: INBOX_JOB_PAYLOAD_VERSION,
  fields: ['inbox_id'],
  maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const PRESTASHOP_PROCESS_PUSH_SPEC = spec({
  name: 'prestashop_process_push',
  payloadVersion: INBOX_JOB_PAYLOAD_VERSION,
  fields: ['inbox_id'],
  maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const WOOCOMMERCE_PROCESS_ORDER_SPEC = spec({
  name: 'woocommerce_process_order',
  payloadVersion: INBOX_JOB_PAYLOAD_VERSION,
  fields: ['inbox_id'],
  maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});

// One-off jobs.
export const WEBHOOKS_DELIVER_SPEC = spec({
  name: 'webhooks_deliver',
  payloadVersion: 1,
  fields: ['delivery_id'],
  maxAttempts: 5,
});
export const ACCOUNT_RESET_MAIL_SPEC = spec({
  name: 'account_reset_mail',
  payloadVersion: 1,
  fields: ['email', 'locale'],
  maxAttempts: 5,
});
/** Per shop, keyed by its link: a poll still queued is not queued twice. */
export const PRESTASHOP_POLL_SHOP_SPEC = spec({
  name: 'prestashop_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 3,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const WOOCOMMERCE_POLL_SHOP_SPEC = spec({
  name: 'woocommerce_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 1,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});

/** Every job the service knows; src/jobs/index.ts has one handler for each. */
export const JOB_SPECS: readonly JobSpec[] = [
  CLEANUP_IDEMPOTENCY_KEYS_SPEC,
  CLEANUP_ACCOUNTS_SPEC,
  ISSUE_DUE_INVOICES_SPEC,
  CLEANUP_ORDER_QUEUES_SPEC,
  RECOVER_STALLED_JOBS_SPEC,
  REFRESH_ORDER_JSON_SPEC,
  WEBHOOKS_RECOVER_SPEC,
  PRESTASHOP_POLL_SPEC,
  WOOCOMMERCE_POLL_SPEC,
  WEBHOOKS_FAN_OUT_SPEC,
  SHOPIFY_SYNC_ORDER_SPEC,
  PRESTASHOP_SYNC_ORDER_SPEC,
  WOOCOMMERCE_SYNC_ORDER_SPEC,
  SHOPIFY_PROCESS_WEBHOOK_SPEC,
  PRESTASHOP_PROCESS_PUSH_SPEC,
  WOOCOMMERCE_PROCESS_ORDER_SPEC,
  WEBHOOKS_DELIVER_SPEC,
  ACCOUNT_RESET_MAIL_SPEC,
  PRESTASHOP_POLL_SHOP_SPEC,
  WOOCOMMERCE_POLL_SHOP_SPEC,
];
