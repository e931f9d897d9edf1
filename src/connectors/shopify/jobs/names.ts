import {
  INBOX_JOB_MAX_ATTEMPTS,
  INBOX_JOB_PAYLOAD_VERSION,
  OUTBOX_JOB_PAYLOAD_VERSION,
  STALLED_JOB_GRACE_MS,
  spec,
} from '../../../jobs/job-spec.ts';

/** The platform's jobs: names persisted in the queue (never renamed), payloads and attempts. A leaf. */
export const SHOPIFY_SYNC_ORDER_SPEC = spec({
  name: 'shopify_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const SHOPIFY_PROCESS_WEBHOOK_SPEC = spec({
  name: 'shopify_process_webhook',
  payloadVersion: INBOX_JOB_PAYLOAD_VERSION,
  fields: ['inbox_id'],
  maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
