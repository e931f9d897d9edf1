import { defineJob } from '../../../jobs/job.ts';
import { PRESTASHOP_SYNC_ORDER_SPEC } from '../../../jobs/job-names.ts';
import type { PrestaShopConnector } from '../prestashop-connector.ts';

/** What this job uses. */
type Context = { prestashop: Pick<PrestaShopConnector, 'statuses'> };

/**
 * The PrestaShop subscriber's job for one outbox event: our tracking number into the shop's
 * order_carriers on creation, its "delivered" state on delivery. The shop down: the queue's
 * exponential backoff (25 attempts, about three days), the link noting it meanwhile. Given up: a sync
 * problem the brand sees.
 */
export const PRESTASHOP_SYNC_ORDER = defineJob({
  ...PRESTASHOP_SYNC_ORDER_SPEC,
  async run(deps: Context, { event_id }, helpers) {
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
