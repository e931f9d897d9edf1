import { defineJob, type Job } from '../../../jobs/job.ts';
import type { WooCommerceConnector } from '../woocommerce-connector.ts';
import { WOOCOMMERCE_POLL_SHOP_SPEC, WOOCOMMERCE_POLL_SPEC } from './names.ts';

/** What the polls use; null when the bridge is off. */
type Context = { woocommerce: Pick<WooCommerceConnector, 'activeLinks' | 'poll'> | null };

/**
 * Every five minutes, one poll job per active WooCommerce link (keyed by the link: a poll still
 * queued is not queued twice), so a slow or unreachable shop holds up no other.
 */
export const WOOCOMMERCE_POLL: Job<never, Context> = defineJob({
  ...WOOCOMMERCE_POLL_SPEC,
  schedule: '*/5 * * * *',
  async run(deps: Context, _payload, helpers) {
    if (!deps.woocommerce) return;
    for (const connection of await deps.woocommerce.activeLinks()) {
      await helpers.addJob(
        WOOCOMMERCE_POLL_SHOP_SPEC.name,
        { v: WOOCOMMERCE_POLL_SHOP_SPEC.payloadVersion, connection_id: connection.id },
        {
          jobKey: `woocommerce_poll_shop:${connection.id}`,
          maxAttempts: WOOCOMMERCE_POLL_SHOP_SPEC.maxAttempts,
        },
      );
    }
  },
});

/**
 * One link's poll (src/connectors/woocommerce/poll.ts). Not retried: the next one is five minutes
 * away, and what failed is in the link's health (`dlv connectors show`).
 */
export const WOOCOMMERCE_POLL_SHOP = defineJob({
  ...WOOCOMMERCE_POLL_SHOP_SPEC,
  async run(deps: Context, { connection_id }, helpers) {
    if (!deps.woocommerce) return;
    try {
      const summary = await deps.woocommerce.poll.poll(connection_id);
      helpers.logger.debug(`woocommerce poll ${connection_id}: ${summary.stored}/${summary.seen} new`);
    } catch (err) {
      // Recorded in the link's health by the poll; the link may also have been disconnected since.
      helpers.logger.info(`woocommerce poll ${connection_id}: ${(err as Error).message}`);
    }
  },
});
