/**
 * What the code that enqueues a job and the job's handler agree on: its name, its payload and how
 * the queue treats it. A leaf (it imports only leaves), so SQL that enqueues a job in a change's
 * statement names it from here without importing the handler, and the handler (src/jobs/*.ts)
 * spreads its spec into its definition: the name is written nowhere else. Each shop platform's
 * jobs are in its folder (src/connectors/<platform>/jobs/names.ts), listed here in JOB_SPECS.
 */
import * as PRESTASHOP_JOBS from '../connectors/prestashop/jobs/names.ts';
import * as SHOPIFY_JOBS from '../connectors/shopify/jobs/names.ts';
import * as WOOCOMMERCE_JOBS from '../connectors/woocommerce/jobs/names.ts';
import { type JobSpec, outboxJobSpec, STALLED_JOB_GRACE_MS, spec } from './job-spec.ts';

export type { JobPayload, JobSpec } from './job-spec.ts';
export {
  INBOX_JOB_MAX_ATTEMPTS,
  INBOX_JOB_PAYLOAD_VERSION,
  OUTBOX_JOB_MAX_ATTEMPTS,
  OUTBOX_JOB_PAYLOAD_VERSION,
} from './job-spec.ts';

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
export const ERASE_PROOF_FILES_SPEC = spec({ name: 'proof_files_erase', payloadVersion: 1, fields: [] });
export const PURGE_MESSAGE_LOGS_SPEC = spec({ name: 'message_logs_purge', payloadVersion: 1, fields: [] });
export const ANONYMISE_RECIPIENT_DATA_SPEC = spec({
  name: 'recipient_data_anonymise',
  payloadVersion: 1,
  fields: [],
});
export const EINVOICES_SYNC_SPEC = spec({ name: 'einvoices_sync', payloadVersion: 1, fields: [] });
export const ROUNDS_DRIVEN_DISTANCE_SPEC = spec({
  name: 'rounds_driven_distance',
  payloadVersion: 1,
  fields: [],
});
export const CHECK_ADDRESSES_SPEC = spec({ name: 'check_addresses', payloadVersion: 1, fields: [] });
export const AUDIT_PARTITIONS_SPEC = spec({ name: 'audit_partitions', payloadVersion: 1, fields: [] });
export const PURGE_COURIER_POSITIONS_SPEC = spec({
  name: 'courier_positions_purge',
  payloadVersion: 1,
  fields: [],
});

// Outbox subscribers' jobs, one per event (src/outbox-subscribers.ts).
export const WEBHOOKS_FAN_OUT_SPEC = outboxJobSpec('webhooks_fan_out');
/** The recipients' notifications of an order's move (decision 0007). */
export const NOTIFY_RECIPIENT_SPEC = outboxJobSpec('notify-recipient');

// One-off jobs.
/**
 * An issued document's Factur-X to the e-invoicing platform, and a paid invoice's payment data: safe
 * to run twice (the platform is asked first whether it has the document's number), so retried for
 * about a day and a half of outage (the queue's backoff), and run again when stalled.
 */
export const EINVOICE_SUBMIT_SPEC = spec({
  name: 'einvoice_submit',
  payloadVersion: 1,
  fields: ['document_id'],
  maxAttempts: 20,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const EINVOICE_REPORT_PAYMENT_SPEC = spec({
  name: 'einvoice_report_payment',
  payloadVersion: 1,
  fields: ['invoice_id'],
  maxAttempts: 20,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
/** One step of a test order's scenario (test mode), the next enqueued TEST_MODE_STEP_MS later. */
export const PLAY_TEST_SCENARIO_SPEC = spec({
  name: 'test_scenario_step',
  payloadVersion: 1,
  fields: ['tracking_ref', 'brand_id', 'scenario', 'step'],
  maxAttempts: 3,
});
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

/** Every job the service knows, the shop platforms' among them; src/jobs/index.ts has one handler for each. */
export const JOB_SPECS: readonly JobSpec[] = [
  CLEANUP_IDEMPOTENCY_KEYS_SPEC,
  CLEANUP_ACCOUNTS_SPEC,
  ISSUE_DUE_INVOICES_SPEC,
  CLEANUP_ORDER_QUEUES_SPEC,
  RECOVER_STALLED_JOBS_SPEC,
  REFRESH_ORDER_JSON_SPEC,
  WEBHOOKS_RECOVER_SPEC,
  ERASE_PROOF_FILES_SPEC,
  PURGE_MESSAGE_LOGS_SPEC,
  ANONYMISE_RECIPIENT_DATA_SPEC,
  EINVOICES_SYNC_SPEC,
  ROUNDS_DRIVEN_DISTANCE_SPEC,
  CHECK_ADDRESSES_SPEC,
  AUDIT_PARTITIONS_SPEC,
  PURGE_COURIER_POSITIONS_SPEC,
  WEBHOOKS_FAN_OUT_SPEC,
  NOTIFY_RECIPIENT_SPEC,
  WEBHOOKS_DELIVER_SPEC,
  ACCOUNT_RESET_MAIL_SPEC,
  EINVOICE_SUBMIT_SPEC,
  EINVOICE_REPORT_PAYMENT_SPEC,
  PLAY_TEST_SCENARIO_SPEC,
  ...Object.values(SHOPIFY_JOBS),
  ...Object.values(WOOCOMMERCE_JOBS),
  ...Object.values(PRESTASHOP_JOBS),
];
