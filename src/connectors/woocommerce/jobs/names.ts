import {
  INBOX_JOB_MAX_ATTEMPTS,
  INBOX_JOB_PAYLOAD_VERSION,
  OUTBOX_JOB_PAYLOAD_VERSION,
  STALLED_JOB_GRACE_MS,
  spec,
} from '../../../jobs/job-spec.ts';

/** The platform's jobs: names persisted in the queue (never renamed), payloads and attempts. A leaf. */
export const WOOCOMMERCE_POLL_SPEC = spec({ name: 'woocommerce_poll', payloadVersion: 1, fields: [] });
export const WOOCOMMERCE_SYNC_ORDER_SPEC = spec({
  name: 'woocommerce_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const WOOCOMMERCE_PROCESS_ORDER_SPEC = spec({
  name: 'woocommerce_process_order',
  payloadVersion: INBOX_JOB_PAYLOAD_VERSION,
  fields: ['inbox_id'],
  maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const WOOCOMMERCE_POLL_SHOP_SPEC = spec({
  name: 'woocommerce_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 1,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
