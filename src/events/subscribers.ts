import type { ConnectorDirectory } from '../connectors/connector-directory.ts';
import { SHOPIFY_QUEUE_PREFIX } from '../connectors/shopify/tracking-sync.ts';
import type { WebhookListeners } from '../domain/webhooks/webhook-listeners.ts';
import { PRESTASHOP_SYNC_ORDER } from '../jobs/prestashop-sync-order.ts';
import { SHOPIFY_SYNC_ORDER } from '../jobs/shopify-sync-order.ts';
import { WEBHOOKS_FAN_OUT } from '../jobs/webhooks-fan-out.ts';
import { WOOCOMMERCE_SYNC_ORDER } from '../jobs/woocommerce-sync-order.ts';
import type { EventType } from './catalogue.ts';
import type { OutboxEvent, Subscriber } from './outbox.ts';

/** The prefixes of the shop connectors' per-order job queues (`shopify:DLV-…`). */
export const ORDER_QUEUE_PREFIXES = [SHOPIFY_QUEUE_PREFIX, 'prestashop', 'woocommerce'] as const;

/** The events a shop connector pushes back to the shop (tracking). */
const SHOP_EVENTS: ReadonlySet<EventType> = new Set(['order.created', 'order.status_changed']);
/** Shopify hears of a delivery order at its pickup, its first status change that ships it. */
const SHOPIFY_EVENTS: ReadonlySet<EventType> = new Set(['order.status_changed']);

/**
 * One queue per delivery order and subscriber (`shopify:DLV-…`): the order's moves reach the shop
 * one at a time and in the order they happened, while different orders still sync in parallel.
 */
export function perOrderQueue(prefix: string) {
  return (event: Pick<OutboxEvent, 'data'>): string | null => {
    const ref = (event.data as { order?: { tracking_ref?: unknown } }).order?.tracking_ref;
    return typeof ref === 'string' ? `${prefix}:${ref}` : null;
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
    { name: 'webhooks', job: WEBHOOKS_FAN_OUT.name, listens: parts.webhooks.listens },
  ];
  const shopify = parts.shopify;
  if (shopify) {
    list.push({
      name: 'shopify',
      job: SHOPIFY_SYNC_ORDER.name,
      // Brands with an active Shopify link; the job itself skips orders that did not come from Shopify.
      listens: (brandId, type) => SHOPIFY_EVENTS.has(type) && shopify.hasActiveLink('shopify', brandId),
      queue: perOrderQueue(SHOPIFY_QUEUE_PREFIX),
    });
  }
  const prestashop = parts.prestashop;
  list.push({
    name: 'prestashop',
    job: PRESTASHOP_SYNC_ORDER.name,
    // Brands with an active PrestaShop link; the job itself skips orders that did not come from one.
    listens: (brandId, type) => SHOP_EVENTS.has(type) && prestashop.hasActiveLink('prestashop', brandId),
    queue: perOrderQueue(ORDER_QUEUE_PREFIXES[1]),
  });
  const woocommerce = parts.woocommerce;
  if (woocommerce) {
    list.push({
      name: 'woocommerce',
      job: WOOCOMMERCE_SYNC_ORDER.name,
      listens: (brandId, type) => SHOP_EVENTS.has(type) && woocommerce.hasActiveLink('woocommerce', brandId),
      queue: perOrderQueue(ORDER_QUEUE_PREFIXES[2]),
    });
  }
  return list;
}
