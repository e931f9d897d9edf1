import {
  INBOX_JOB_MAX_ATTEMPTS,
  INBOX_JOB_PAYLOAD_VERSION,
  OUTBOX_JOB_PAYLOAD_VERSION,
  STALLED_JOB_GRACE_MS,
  spec,
} from '../../../jobs/job-spec.ts';

/** The platform's jobs: names persisted in the queue (never renamed), payloads and attempts. A leaf. */
export const PRESTASHOP_POLL_SPEC = spec({ name: 'prestashop_poll', payloadVersion: 1, fields: [] });
export const PRESTASHOP_SYNC_ORDER_SPEC = spec({
  name: 'prestashop_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
export const PRESTASHOP_PROCESS_PUSH_SPEC = spec({
  name: 'prestashop_process_push',
  payloadVersion: INBOX_JOB_PAYLOAD_VERSION,
  fields: ['inbox_id'],
  maxAttempts: INBOX_JOB_MAX_ATTEMPTS,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
/** Per shop, keyed by its link: a poll still queued is not queued twice. */
export const PRESTASHOP_POLL_SHOP_SPEC = spec({
  name: 'prestashop_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 3,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
});
