import { defineJob } from '../../../jobs/job.ts';
import { PRESTASHOP_PROCESS_PUSH_SPEC } from '../../../jobs/job-names.ts';
import type { PrestaShopConnector } from '../prestashop-connector.ts';

/** What this job uses. */
type Context = { prestashop: Pick<PrestaShopConnector, 'inbox'> };

/**
 * One push of the PrestaShop module (stored by the receiver, which enqueued this in the same
 * statement): an order to create or cancel. An order we cannot take becomes a sync problem, not a
 * failure; only the database failing makes it retry.
 */
export const PRESTASHOP_PROCESS_PUSH = defineJob({
  ...PRESTASHOP_PROCESS_PUSH_SPEC,
  async run(deps: Context, { inbox_id }, helpers) {
    if (!/^\d+$/.test(inbox_id)) throw new Error(`prestashop_process_push: bad inbox_id ${inbox_id}`);
    const outcome = await deps.prestashop.inbox.process(Number(inbox_id));
    helpers.logger.debug(`prestashop push ${inbox_id}: ${outcome}`);
  },
});
