import { defineJob, type Job, STALLED_JOB_GRACE_MS } from './job.ts';

/**
 * One webhook Shopify sent (stored by the receiver, which enqueued this in the same statement):
 * an order to create or cancel, an uninstall, a privacy request. An order we cannot take becomes a
 * sync problem, not a failure; only the database failing makes it retry.
 */
export const SHOPIFY_PROCESS_WEBHOOK: Job<'inbox_id'> = defineJob({
  name: 'shopify_process_webhook',
  payloadVersion: 1,
  fields: ['inbox_id'],
  maxAttempts: 10,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { inbox_id }, helpers) {
    if (!deps.shopify) throw new Error('the Shopify connector is not configured (SHOPIFY_API_KEY)');
    if (!/^\d+$/.test(inbox_id)) throw new Error(`shopify_process_webhook: bad inbox_id ${inbox_id}`);
    const outcome = await deps.shopify.inbox.process(Number(inbox_id));
    helpers.logger.debug(`shopify webhook ${inbox_id}: ${outcome}`);
  },
});
