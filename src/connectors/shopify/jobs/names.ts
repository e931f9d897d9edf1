import { inboxJobSpec, outboxJobSpec } from '../../../jobs/job-spec.ts';

/** The platform's jobs: names persisted in the queue (never renamed), payloads and attempts. A leaf. */
export const SHOPIFY_SYNC_ORDER_SPEC = outboxJobSpec('shopify_sync_order');
export const SHOPIFY_PROCESS_WEBHOOK_SPEC = inboxJobSpec('shopify_process_webhook');
