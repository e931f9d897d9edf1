import { stepOf } from './domain/recipients/notification-step.ts';
import type { WebhookListeners } from './domain/webhooks/webhook-listeners.ts';
import type { EventType } from './events/catalogue.ts';
import type { OutboxEvent, Subscriber } from './events/outbox.ts';
import { orderQueueName } from './infra/queue/queue-sql.ts';
import { NOTIFY_RECIPIENT_SPEC, WEBHOOKS_FAN_OUT_SPEC } from './jobs/job-names.ts';

/** The event's order's own queue for this subscriber (src/infra/queue/queue-sql.ts orderQueueName). */
function perOrderQueue(prefix: string) {
  return (event: Pick<OutboxEvent, 'data'>): string | null => {
    const ref = (event.data as { order?: { tracking_ref?: unknown } }).order?.tracking_ref;
    return typeof ref === 'string' ? orderQueueName(prefix, ref) : null;
  };
}

/** A shop connector that sends an order's moves back to its shop (src/connectors/connector.ts syncBack). */
export interface ShopSubscriber {
  platform: string;
  events: readonly EventType[];
  job: string;
  queuePrefix: string;
  /** Whether the brand has an active link of this platform (cached: asked on every change). */
  hasActiveLink(brandId: string): boolean | Promise<boolean>;
}

/** The recipients' notifications (decision 0007): whether a brand's event may tell its recipients anything. */
export interface RecipientsSubscriber {
  listens(brandId: string, type: EventType): boolean | Promise<boolean>;
}

/** An event that tells a recipient something: a creation that confirms, or a move to a step. */
const tellsARecipient = (event: Pick<OutboxEvent, 'type' | 'data'>) =>
  stepOf(event.type, event.data) !== null;

/**
 * Every subscriber of the outbox, in one list: webhook delivery, the recipients' notifications
 * (every order of the brand, whatever its origin: a shop link's setting is the job's decision), and
 * each shop connector that is on (src/connectors/registry.ts), with its own job, its own cached
 * "does this brand listen" answer, and only the events of orders that came from its platform;
 * automation subscriptions add their entry here. Part of the composition root (src/deps.ts): it
 * names the jobs and their queues, which the outbox (src/events/) knows nothing of.
 */
export function subscribers(parts: {
  webhooks: WebhookListeners;
  recipients: RecipientsSubscriber;
  shops: readonly ShopSubscriber[];
}): Subscriber[] {
  const list: Subscriber[] = [
    { name: 'webhooks', job: WEBHOOKS_FAN_OUT_SPEC.name, listens: parts.webhooks.listens },
    {
      name: 'recipients',
      job: NOTIFY_RECIPIENT_SPEC.name,
      listens: parts.recipients.listens,
      accepts: tellsARecipient,
    },
  ];
  for (const shop of parts.shops) {
    const events: ReadonlySet<EventType> = new Set(shop.events);
    list.push({
      name: shop.platform,
      job: shop.job,
      listens: (brandId, type) => events.has(type) && shop.hasActiveLink(brandId),
      queue: perOrderQueue(shop.queuePrefix),
      origin: shop.platform,
    });
  }
  return list;
}
