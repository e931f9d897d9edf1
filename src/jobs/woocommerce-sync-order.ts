import { OUTBOX_JOB_PAYLOAD_VERSION } from '../events/outbox.ts';
import { defineJob, type Job, STALLED_JOB_GRACE_MS } from './job.ts';

/**
 * The WooCommerce subscriber's job for one outbox event: the delivery status written back to the
 * shop order (notes, `completed`, a Shipment Tracking entry). The shop down: the queue's
 * exponential backoff (25 attempts, about three days); given up: a sync problem the brand sees.
 */
export const WOOCOMMERCE_SYNC_ORDER: Job<'event_id'> = defineJob({
  name: 'woocommerce_sync_order',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { event_id }, helpers) {
    if (!deps.woocommerce) throw new Error('the WooCommerce bridge is off (CONNECTOR_SECRET_KEY)');
    try {
      // A second attempt may follow one that wrote the note and died before finishing.
      const outcome = await deps.woocommerce.status.handle(event_id, { rerun: helpers.job.attempts > 1 });
      helpers.logger.debug(`woocommerce sync ${event_id}: ${outcome}`);
    } catch (err) {
      if (helpers.job.attempts >= helpers.job.max_attempts)
        await deps.woocommerce.status.recordFailure(event_id, (err as Error).message);
      throw err;
    }
  },
});
