import { OUTBOX_JOB_PAYLOAD_VERSION } from '../events/outbox.ts';
import { defineJob, type Job, STALLED_JOB_GRACE_MS } from './job.ts';

/**
 * The PrestaShop subscriber's job for one outbox event: our tracking number into the shop's
 * order_carriers on creation, its "delivered" state on delivery. The shop down: the queue's
 * exponential backoff (25 attempts, about three days), the link noting it meanwhile. Given up: a sync
 * problem the brand sees.
 */
export const PRESTASHOP_SYNC_ORDER: Job<'event_id'> = defineJob({
  name: 'prestashop_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { event_id }, helpers) {
    try {
      const outcome = await deps.prestashop.statuses.handle(event_id);
      helpers.logger.debug(`prestashop sync ${event_id}: ${outcome}`);
    } catch (err) {
      if (helpers.job.attempts >= helpers.job.max_attempts)
        await deps.prestashop.statuses.recordFailure(event_id, (err as Error).message);
      throw err;
    }
  },
});
