import type { WebhookDeliveryService } from '../domain/webhooks/webhook-delivery-service.ts';
import { defineJob } from './job.ts';
import { WEBHOOKS_FAN_OUT_SPEC } from './job-names.ts';

/** What the fan-out uses. */
interface FanOutContext {
  webhookDeliveries: Pick<WebhookDeliveryService, 'fanOut'>;
}

/** The webhooks subscriber's job for one outbox event: one delivery per subscribed active endpoint. */
export const WEBHOOKS_FAN_OUT = defineJob({
  ...WEBHOOKS_FAN_OUT_SPEC,
  async run(deps: FanOutContext, { event_id }, helpers) {
    const created = await fanOutWebhookEvent(deps, event_id);
    if (created.length > 0) helpers.logger.debug(`event ${event_id}: ${created.length} deliveries`);
  },
});

/** Safe to run twice for one event. */
export function fanOutWebhookEvent(deps: FanOutContext, eventId: string): Promise<string[]> {
  return deps.webhookDeliveries.fanOut(eventId);
}
