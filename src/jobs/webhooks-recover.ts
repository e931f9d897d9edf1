import { ORPHAN_GRACE_MS, type WebhookDeliveryService } from '../domain/webhooks/webhook-delivery-service.ts';
import { defineJob } from './job.ts';
import { WEBHOOKS_RECOVER_SPEC } from './job-names.ts';

export { ORPHAN_GRACE_MS };

/** Every minute: deliveries orphaned by a worker killed mid-send are enqueued again. */
export const WEBHOOKS_RECOVER = defineJob({
  ...WEBHOOKS_RECOVER_SPEC,
  schedule: '* * * * * ?max=1',
  async run(deps: { webhookDeliveries: Pick<WebhookDeliveryService, 'recoverOrphans'> }, _payload, helpers) {
    const requeued = await deps.webhookDeliveries.recoverOrphans();
    if (requeued.length > 0)
      helpers.logger.info(`re-enqueued ${requeued.length} orphaned webhook deliveries`);
  },
});
