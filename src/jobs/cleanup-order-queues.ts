import { defineJob } from './job.ts';
import { CLEANUP_ORDER_QUEUES_SPEC } from './job-names.ts';

/**
 * Every ten minutes: graphile-worker keeps a job queue's row after its last job, so the shop
 * connectors' per-order queues (src/infra/queue/queue-sql.ts orderQueueName) are dropped once their
 * order is finished (delivered, returned, cancelled) and will not move again.
 */
export const CLEANUP_ORDER_QUEUES = defineJob({
  ...CLEANUP_ORDER_QUEUES_SPEC,
  schedule: '*/10 * * * * ?max=1',
  async run(deps: { jobQueue: { deleteFinishedOrderQueues(): Promise<unknown> } }) {
    await deps.jobQueue.deleteFinishedOrderQueues();
  },
});
