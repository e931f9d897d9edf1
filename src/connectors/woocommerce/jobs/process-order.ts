import { defineJob } from '../../../jobs/job.ts';
import { WOOCOMMERCE_PROCESS_ORDER_SPEC } from '../../../jobs/job-names.ts';
import type { WooCommerceConnector } from '../woocommerce-connector.ts';

/** What this job uses. */
type Context = { woocommerce: Pick<WooCommerceConnector, 'orderSync'> | null };

/**
 * One WooCommerce order state stored by the receiver or the poll (which enqueued this in the same
 * statement): a delivery order to create or cancel. An order we cannot take becomes a sync problem;
 * the shop unreachable makes it retry with the queue's backoff, and the brand sees it once it gives up.
 */
export const WOOCOMMERCE_PROCESS_ORDER = defineJob({
  ...WOOCOMMERCE_PROCESS_ORDER_SPEC,
  async run(deps: Context, { inbox_id }, helpers) {
    if (!deps.woocommerce) throw new Error('the WooCommerce bridge is off (CONNECTOR_SECRET_KEY)');
    if (!/^\d+$/.test(inbox_id)) throw new Error(`woocommerce_process_order: bad inbox_id ${inbox_id}`);
    try {
      const outcome = await deps.woocommerce.orderSync.process(Number(inbox_id));
      helpers.logger.debug(`woocommerce order ${inbox_id}: ${outcome}`);
    } catch (err) {
      if (helpers.job.attempts >= helpers.job.max_attempts)
        await deps.woocommerce.orderSync.recordFailure(Number(inbox_id), (err as Error).message);
      throw err;
    }
  },
});
