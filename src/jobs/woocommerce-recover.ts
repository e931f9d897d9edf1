import { defineJob } from './job.ts';
import { STALLED_JOB_GRACE_MS } from './shopify-recover.ts';
import { WOOCOMMERCE_POLL_SHOP } from './woocommerce-poll.ts';
import { WOOCOMMERCE_PROCESS_ORDER } from './woocommerce-process-order.ts';
import { WOOCOMMERCE_SYNC_ORDER } from './woocommerce-sync-order.ts';

/**
 * Every minute: the WooCommerce jobs a killed process held are run again (all are safe to run
 * twice), rather than waiting out graphile-worker's 4-hour lock — the same as shopify_recover.
 */
export const WOOCOMMERCE_RECOVER = defineJob({
  name: 'woocommerce_recover',
  payloadVersion: 1,
  fields: [],
  schedule: '* * * * * ?max=1',
  async run(deps, _payload, helpers) {
    if (!deps.woocommerce) return;
    const freed = await deps.woocommerce.recoverStalledJobs(
      [WOOCOMMERCE_PROCESS_ORDER.name, WOOCOMMERCE_SYNC_ORDER.name, WOOCOMMERCE_POLL_SHOP.name],
      STALLED_JOB_GRACE_MS,
    );
    if (freed > 0) helpers.logger.info(`ran again ${freed} WooCommerce jobs held by a worker that died`);
  },
});
