import { inboxJobSpec, outboxJobSpec, STALLED_JOB_GRACE_MS, spec } from '../../../jobs/job-spec.ts';

/** The platform's jobs: names persisted in the queue (never renamed), payloads and attempts. A leaf. */
export const PRESTASHOP_POLL_SPEC = spec({ name: 'prestashop_poll', payloadVersion: 1, fields: [] });
export const PRESTASHOP_SYNC_ORDER_SPEC = outboxJobSpec('prestashop_sync_order');
export const PRESTASHOP_PROCESS_PUSH_SPEC = inboxJobSpec('prestashop_process_push');
/** Per shop, keyed by its link: a poll still queued is not queued twice. */
export const PRESTASHOP_POLL_SHOP_SPEC = spec({
  name: 'prestashop_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 3,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
