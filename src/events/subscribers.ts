import type { WebhookListeners } from '../domain/webhooks/webhook-listeners.ts';
import { WEBHOOKS_FAN_OUT } from '../jobs/webhooks-fan-out.ts';
import type { Subscriber } from './outbox.ts';

/**
 * Every subscriber of the outbox, in one list: webhook delivery today; each shop connector and the
 * automation subscriptions add their entry here, with their own job and their own cached
 * "does this brand listen" answer.
 */
export function subscribers(parts: { webhooks: WebhookListeners }): Subscriber[] {
  return [{ name: 'webhooks', job: WEBHOOKS_FAN_OUT.name, listens: parts.webhooks.listens }];
}
