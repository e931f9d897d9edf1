import { defineJob } from '../../../jobs/job.ts';
import { SHOPIFY_PROCESS_WEBHOOK_SPEC } from '../../../jobs/job-names.ts';
import type { ShopifyConnector } from '../shopify-connector.ts';

/** What this job uses. */
type Context = { shopify: Pick<ShopifyConnector, 'inbox'> | null };

/**
 * One webhook Shopify sent (stored by the receiver, which enqueued this in the same statement):
 * an order to create or cancel, an uninstall, a privacy request. An order we cannot take becomes a
 * sync problem, not a failure; only the database failing makes it retry.
 */
export const SHOPIFY_PROCESS_WEBHOOK = defineJob({
  ...SHOPIFY_PROCESS_WEBHOOK_SPEC,
  async run(deps: Context, { inbox_id }, helpers) {
    if (!deps.shopify) throw new Error('the Shopify connector is not configured (SHOPIFY_API_KEY)');
    if (!/^\d+$/.test(inbox_id)) throw new Error(`shopify_process_webhook: bad inbox_id ${inbox_id}`);
    const outcome = await deps.shopify.inbox.process(Number(inbox_id));
    helpers.logger.debug(`shopify webhook ${inbox_id}: ${outcome}`);
  },
});
