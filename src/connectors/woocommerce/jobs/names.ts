import { inboxJobSpec, outboxJobSpec, STALLED_JOB_GRACE_MS, spec } from '../../../jobs/job-spec.ts';

/** The platform's jobs: names persisted in the queue (never renamed), payloads and attempts. A leaf. */
export const WOOCOMMERCE_POLL_SPEC = spec({ name: 'woocommerce_poll', payloadVersion: 1, fields: [] });
export const WOOCOMMERCE_SYNC_ORDER_SPEC = outboxJobSpec('woocommerce_sync_order');
export const WOOCOMMERCE_PROCESS_ORDER_SPEC = inboxJobSpec('woocommerce_process_order');
export const WOOCOMMERCE_POLL_SHOP_SPEC = spec({
  name: 'woocommerce_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 1,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
