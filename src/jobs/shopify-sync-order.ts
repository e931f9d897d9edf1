import { ShopifyRetryLater } from '../connectors/shopify/admin-client.ts';
import { OUTBOX_JOB_PAYLOAD_VERSION } from '../events/outbox.ts';
import { defineJob, type Job, STALLED_JOB_GRACE_MS } from './job.ts';

/** How often one event may be put off to Shopify's refill time before it counts as failing. */
const MAX_DEFERRALS = 20;

/**
 * The Shopify subscriber's job for one outbox event: tracking pushed to the shop (a fulfillment on
 * creation, an event on each status change). Shopify down or rate-limited without a hint: the
 * queue's exponential backoff (25 attempts, about three days). Throttled with a known refill time:
 * this job is put off to exactly that time without spending an attempt. Given up: a sync problem.
 */
export const SHOPIFY_SYNC_ORDER: Job<'event_id'> = defineJob({
  name: 'shopify_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { event_id }, helpers) {
    if (!deps.shopify) throw new Error('the Shopify connector is not configured (SHOPIFY_API_KEY)');
    const deferrals = Number((helpers.job.payload as { deferrals?: unknown }).deferrals ?? 0) || 0;
    try {
      const outcome = await deps.shopify.tracking.handle(event_id);
      helpers.logger.debug(`shopify sync ${event_id}: ${outcome}`);
    } catch (err) {
      if (err instanceof ShopifyRetryLater && err.retryAt && deferrals < MAX_DEFERRALS) {
        await helpers.addJob(
          SHOPIFY_SYNC_ORDER.name,
          { v: OUTBOX_JOB_PAYLOAD_VERSION, event_id, deferrals: deferrals + 1 },
          { runAt: err.retryAt, maxAttempts: helpers.job.max_attempts },
        );
        return;
      }
      if (helpers.job.attempts >= helpers.job.max_attempts)
        await deps.shopify.tracking.recordFailure(event_id, (err as Error).message);
      throw err;
    }
  },
});
