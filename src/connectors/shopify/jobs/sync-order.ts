import { defineJob, type Job, type JobHelpers } from '../../../jobs/job.ts';
import { OUTBOX_JOB_PAYLOAD_VERSION } from '../../../jobs/job-names.ts';
import { isShopApiFailure } from '../../shop-api-error.ts';
import type { ShopifyConnector } from '../shopify-connector.ts';
import { SHOPIFY_SYNC_ORDER_SPEC } from './names.ts';

/** What this job uses; null when the Shopify connector is not configured. */
type Context = { shopify: Pick<ShopifyConnector, 'syncQueues' | 'tracking'> | null };

/** How often one event may be put off to Shopify's refill time before it counts as failing. */
const MAX_DEFERRALS = 20;
/** An event waiting behind an older one of its order runs this long after the older one is due. */
const BEHIND_OLDER_MS = 1000;

/**
 * The Shopify subscriber's job for one outbox event: tracking pushed to the shop (a fulfillment on
 * creation, an event on each status change). Shopify down or rate-limited without a hint: the
 * queue's exponential backoff (25 attempts, about three days). Throttled with a known refill time:
 * this job is put off to exactly that time without spending an attempt. Given up: a sync problem.
 *
 * The jobs of one delivery order share a queue (`shopify:<tracking ref>`), so they run one at a
 * time; graphile-worker picks a queue's jobs by due time, so a job whose order still has an older
 * event waiting (a retry under backoff, a deferral) puts itself after it: the shop hears the
 * order's moves in the order they happened.
 */
export const SHOPIFY_SYNC_ORDER: Job<'event_id', Context> = defineJob({
  ...SHOPIFY_SYNC_ORDER_SPEC,
  async run(deps, { event_id }, helpers) {
    const shopify = deps.shopify;
    if (!shopify) throw new Error('the Shopify connector is not configured (SHOPIFY_API_KEY)');
    const deferrals = Number((helpers.job.payload as { deferrals?: unknown }).deferrals ?? 0) || 0;
    const queueId = helpers.job.job_queue_id;
    if (queueId !== null) {
      const olderDue = await shopify.syncQueues.olderEventDue(
        SHOPIFY_SYNC_ORDER_SPEC.name,
        queueId,
        helpers.job.id,
        event_id,
      );
      if (olderDue) {
        const after = Math.max(olderDue.getTime(), Date.now()) + BEHIND_OLDER_MS;
        await deferTo(shopify, helpers, event_id, deferrals, new Date(after));
        return;
      }
    }
    try {
      const outcome = await shopify.tracking.handle(event_id);
      helpers.logger.debug(`shopify sync ${event_id}: ${outcome}`);
    } catch (err) {
      if (isShopApiFailure(err, 'retry_later') && err.retryAt && deferrals < MAX_DEFERRALS) {
        await deferTo(shopify, helpers, event_id, deferrals + 1, err.retryAt);
        return;
      }
      if (helpers.job.attempts >= helpers.job.max_attempts)
        await shopify.tracking.recordFailure(event_id, (err as Error).message);
      throw err;
    }
  },
});

/** This event's job again at `runAt`, in the same queue, without spending an attempt. */
async function deferTo(
  shopify: NonNullable<Context['shopify']>,
  helpers: JobHelpers,
  eventId: string,
  deferrals: number,
  runAt: Date,
): Promise<void> {
  const queueId = helpers.job.job_queue_id;
  const queueName = queueId === null ? null : await shopify.syncQueues.nameOf(queueId);
  await helpers.addJob(
    SHOPIFY_SYNC_ORDER_SPEC.name,
    { v: OUTBOX_JOB_PAYLOAD_VERSION, event_id: eventId, deferrals },
    { runAt, maxAttempts: helpers.job.max_attempts, ...(queueName ? { queueName } : {}) },
  );
}
