import type { Task } from 'graphile-worker';
import { webhookDeliveriesRepository } from '../db/repositories/webhook-deliveries-repository.ts';
import type { Deps } from '../deps.ts';
import { readPayload } from './webhook-payloads.ts';

/** Enqueued with each webhook event, in the transaction that caused it; payload `{ v: 1, event_id }`. */
export const WEBHOOKS_FAN_OUT = 'webhooks_fan_out';

/** One delivery (and its job) per subscribed active endpoint; safe to run twice for one event. */
export function fanOutWebhookEvent(deps: Pick<Deps, 'pool' | 'clock'>, eventId: string): Promise<string[]> {
  return webhookDeliveriesRepository(deps.pool).fanOut(eventId, deps.clock());
}

export function webhooksFanOutTask(deps: Deps): Task {
  return async (payload, helpers) => {
    const eventId = readPayload(payload, 'event_id');
    const created = await fanOutWebhookEvent(deps, eventId);
    if (created.length > 0) helpers.logger.debug(`event ${eventId}: ${created.length} deliveries`);
  };
}
