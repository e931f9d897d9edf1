import { defineJob } from './job.ts';

/**
 * Every ten minutes: graphile-worker keeps a job queue's row after its last job, so the shop
 * connectors' per-order queues (src/events/subscribers.ts perOrderQueue) are dropped once their
 * order is finished (delivered, returned, cancelled) and will not move again.
 */
export const CLEANUP_ORDER_QUEUES = defineJob({
  name: 'cleanup_order_queues',
  payloadVersion: 1,
  fields: [],
  schedule: '*/10 * * * * ?max=1',
  async run(deps) {
    await deps.jobQueue.deleteFinishedOrderQueues();
  },
});
