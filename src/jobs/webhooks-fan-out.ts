import type { Deps } from '../deps.ts';
import { OUTBOX_JOB_PAYLOAD_VERSION } from '../events/outbox.ts';
import { defineJob, STALLED_JOB_GRACE_MS } from './job.ts';

/** The webhooks subscriber's job for one outbox event: one delivery per subscribed active endpoint. */
export const WEBHOOKS_FAN_OUT = defineJob({
  name: 'webhooks_fan_out',
  payloadVersion: OUTBOX_JOB_PAYLOAD_VERSION,
  fields: ['event_id'],
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { event_id }, helpers) {
    const created = await fanOutWebhookEvent(deps, event_id);
    if (created.length > 0) helpers.logger.debug(`event ${event_id}: ${created.length} deliveries`);
  },
});

/** Safe to run twice for one event. */
export function fanOutWebhookEvent(
  deps: Pick<Deps, 'webhookDeliveries'>,
  eventId: string,
): Promise<string[]> {
  return deps.webhookDeliveries.fanOut(eventId);
}
