import { ORPHAN_GRACE_MS } from '../domain/webhooks/webhook-delivery-service.ts';
import { defineJob } from './job.ts';

export { ORPHAN_GRACE_MS };

/** Every minute: deliveries orphaned by a worker killed mid-send are enqueued again. */
export const WEBHOOKS_RECOVER = defineJob({
  name: 'webhooks_recover',
  payloadVersion: 1,
  fields: [],
  schedule: '* * * * * ?max=1',
  async run(deps, _payload, helpers) {
    const requeued = await deps.webhookDeliveries.recoverOrphans();
    if (requeued.length > 0)
      helpers.logger.info(`re-enqueued ${requeued.length} orphaned webhook deliveries`);
  },
});
