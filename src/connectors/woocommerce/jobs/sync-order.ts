import { defineJob } from '../../../jobs/job.ts';
import { WOOCOMMERCE_SYNC_ORDER_SPEC } from '../../../jobs/job-names.ts';
import type { WooCommerceConnector } from '../woocommerce-connector.ts';

/** What this job uses. */
type Context = { woocommerce: Pick<WooCommerceConnector, 'status'> | null };

/**
 * The WooCommerce subscriber's job for one outbox event: the delivery status written back to the
 * shop order (notes, `completed`, a Shipment Tracking entry). The shop down: the queue's
 * exponential backoff (25 attempts, about three days); given up: a sync problem the brand sees.
 */
export const WOOCOMMERCE_SYNC_ORDER = defineJob({
  ...WOOCOMMERCE_SYNC_ORDER_SPEC,
  async run(deps: Context, { event_id }, helpers) {
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
