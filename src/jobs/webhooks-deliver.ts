import type {
  DeliverOptions,
  DeliverRun,
  WebhookDeliveryService,
} from '../domain/webhooks/webhook-delivery-service.ts';
import { defineJob } from './job.ts';
import { WEBHOOKS_DELIVER_SPEC } from './job-names.ts';

/** What a delivery uses. */
interface DeliverContext {
  webhookDeliveries: Pick<WebhookDeliveryService, 'deliver'>;
}

export type { DeliverOptions, DeliverRun };

/**
 * One attempt of one webhook delivery. No longer enqueued (the dispatcher of each worker claims due
 * deliveries itself: docs/decisions/0005); kept so that jobs queued by an earlier release still run.
 */
export const WEBHOOKS_DELIVER = defineJob({
  ...WEBHOOKS_DELIVER_SPEC,
  async run(deps: DeliverContext, { delivery_id }, helpers) {
    const run = await deliverWebhook(deps, delivery_id);
    helpers.logger.debug(`delivery ${delivery_id}: ${run}`);
  },
});

export function deliverWebhook(
  deps: DeliverContext,
  deliveryId: string,
  options: DeliverOptions = {},
): Promise<DeliverRun> {
  return deps.webhookDeliveries.deliver(deliveryId, options);
}
