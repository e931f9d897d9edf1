import type { WebhookDeliveryService } from '../domain/webhooks/webhook-delivery-service.ts';
import { defineJob } from './job.ts';
import { WEBHOOKS_RECOVER_SPEC } from './job-names.ts';

/**
 * Every minute: the leases of deliveries whose worker died mid-send are cleared. The dispatchers
 * claim such deliveries anyway once their lease has run out (within 30 s of the crash); this
 * tidies the rows and says in the log how many there were.
 */
export const WEBHOOKS_RECOVER = defineJob({
  ...WEBHOOKS_RECOVER_SPEC,
  schedule: '* * * * * ?max=1',
  async run(deps: { webhookDeliveries: Pick<WebhookDeliveryService, 'expireLeases'> }, _payload, helpers) {
    const expired = await deps.webhookDeliveries.expireLeases();
    if (expired > 0) helpers.logger.info(`${expired} webhook deliveries of a worker that died are due again`);
  },
});
