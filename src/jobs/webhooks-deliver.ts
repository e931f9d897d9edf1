import type { Deps } from '../deps.ts';
import type { DeliverOptions, DeliverRun } from '../domain/webhooks/webhook-delivery-service.ts';
import { defineJob } from './job.ts';

export type { DeliverOptions, DeliverRun };

/** One attempt of one webhook delivery; enqueued with the delivery, and again for each retry. */
export const WEBHOOKS_DELIVER = defineJob({
  name: 'webhooks_deliver',
  payloadVersion: 1,
  fields: ['delivery_id'],
  maxAttempts: 5,
  async run(deps, { delivery_id }, helpers) {
    const run = await deliverWebhook(deps, delivery_id);
    helpers.logger.debug(`delivery ${delivery_id}: ${run}`);
  },
});

export function deliverWebhook(
  deps: Pick<Deps, 'webhookDeliveries'>,
  deliveryId: string,
  options: DeliverOptions = {},
): Promise<DeliverRun> {
  return deps.webhookDeliveries.deliver(deliveryId, options);
}
