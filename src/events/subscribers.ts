import type { ConnectorDirectory } from '../connectors/connector-directory.ts';
import { SHOPIFY_QUEUE_PREFIX } from '../connectors/shopify/tracking-sync.ts';
import type { WebhookListeners } from '../domain/webhooks/webhook-listeners.ts';
import { orderQueueName } from '../infra/queue/queue-sql.ts';
import {
  PRESTASHOP_SYNC_ORDER_SPEC,
  SHOPIFY_SYNC_ORDER_SPEC,
  WEBHOOKS_FAN_OUT_SPEC,
  WOOCOMMERCE_SYNC_ORDER_SPEC,
} from '../jobs/job-names.ts';
import type { EventType } from './catalogue.ts';
import type { OutboxEvent, Subscriber } from './outbox.ts';

/** The prefixes of the shop connectors' per-order job queues (`shopify:DLV-…`). */
export const ORDER_QUEUE_PREFIXES = [SHOPIFY_QUEUE_PREFIX, 'prestashop', 'woocommerce'] as const;

/** The events a shop connector pushes back to the shop (tracking). */
const SHOP_EVENTS: ReadonlySet<EventType> = new Set(['order.created', 'order.status_changed']);
/** Shopify hears of a delivery order at its pickup, its first status change that ships it. */
const SHOPIFY_EVENTS: ReadonlySet<EventType> = new Set(['order.status_changed']);

/** The event's order's own queue for this subscriber (src/infra/queue/queue-sql.ts orderQueueName). */
function perOrderQueue(prefix: string) {
  return (event: Pick<OutboxEvent, 'data'>): string | null => {
    const ref = (event.data as { order?: { tracking_ref?: unknown } }).order?.tracking_ref;
    return typeof ref === 'string' ? orderQueueName(prefix, ref) : null;
  };
}

/**
 * Every subscriber of the outbox, in one list: webhook delivery, and each shop connector that is
 * configured, with their own job and their own cached "does this brand listen" answer; automation
 * subscriptions add their entry here.
 */
export function subscribers(parts: {
  webhooks: WebhookListeners;
  /** Null when the Shopify connector is not configured. */
  shopify: ConnectorDirectory | null;
  /** The PrestaShop connector needs no configuration: always there. */
  prestashop: ConnectorDirectory;
  /** Null when the WooCommerce bridge is off. */
  woocommerce?: ConnectorDirectory | null;
}): Subscriber[] {
  const list: Subscriber[] = [
    { name: 'webhooks', job: WEBHOOKS_FAN_OUT_SPEC.name, listens: parts.webhooks.listens },
  ];
  const shopify = parts.shopify;
  if (shopify) {
    list.push({
      name: 'shopify',
      job: SHOPIFY_SYNC_ORDER_SPEC.name,
      // Brands with an active Shopify link; the job itself skips orders that did not come from Shopify.
      listens: (brandId, type) => SHOPIFY_EVENTS.has(type) && shopify.hasActiveLink('shopify', brandId),
      queue: perOrderQueue(SHOPIFY_QUEUE_PREFIX),
    });
  }
  const prestashop = parts.prestashop;
  list.push({
    name: 'prestashop',
    job: PRESTASHOP_SYNC_ORDER_SPEC.name,
    // Brands with an active PrestaShop link; the job itself skips orders that did not come from one.
    listens: (brandId, type) => SHOP_EVENTS.has(type) && prestashop.hasActiveLink('prestashop', brandId),
    queue: perOrderQueue(ORDER_QUEUE_PREFIXES[1]),
  });
  const woocommerce = parts.woocommerce;
  if (woocommerce) {
    list.push({
      name: 'woocommerce',
      job: WOOCOMMERCE_SYNC_ORDER_SPEC.name,
      listens: (brandId, type) => SHOP_EVENTS.has(type) && woocommerce.hasActiveLink('woocommerce', brandId),
      queue: perOrderQueue(ORDER_QUEUE_PREFIXES[2]),
    });
  }
  return list;
}
