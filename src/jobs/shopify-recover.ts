import { defineJob } from './job.ts';
import { SHOPIFY_PROCESS_WEBHOOK } from './shopify-process-webhook.ts';
import { SHOPIFY_SYNC_ORDER } from './shopify-sync-order.ts';

/**
 * Longer than any Shopify job may run (a few Admin calls of at most 10 s each, throttle waits of at
 * most 3 s inline): a job held longer lost its worker.
 */
export const STALLED_JOB_GRACE_MS = 5 * 60 * 1000;

/**
 * Every minute: the Shopify jobs a killed process held are run again. Without it, a webhook
 * acknowledged just before a crash (Shopify will not send it again) or a fulfillment under way
 * would wait out graphile-worker's 4-hour lock.
 */
export const SHOPIFY_RECOVER = defineJob({
  name: 'shopify_recover',
  payloadVersion: 1,
  fields: [],
  schedule: '* * * * * ?max=1',
  async run(deps, _payload, helpers) {
    if (!deps.shopify) return;
    const freed = await deps.shopify.recoverStalledJobs(
      [SHOPIFY_PROCESS_WEBHOOK.name, SHOPIFY_SYNC_ORDER.name],
      STALLED_JOB_GRACE_MS,
    );
    if (freed > 0) helpers.logger.info(`ran again ${freed} Shopify jobs held by a worker that died`);
  },
});
