import { defineJob } from './job.ts';

/**
 * Every ten minutes: graphile-worker keeps a job queue's row after its last job, so the per-order
 * queues of the Shopify tracking sync (src/events/subscribers.ts perOrderQueue) are dropped once
 * their order is finished (delivered, returned, cancelled) and will not move again.
 */
export const SHOPIFY_CLEANUP_QUEUES = defineJob({
  name: 'shopify_cleanup_queues',
  payloadVersion: 1,
  fields: [],
  schedule: '*/10 * * * * ?max=1',
  async run(deps) {
    await deps.shopify?.syncQueues.deleteFinished();
  },
});
