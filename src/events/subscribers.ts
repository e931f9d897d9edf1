import type { ConnectorDirectory } from '../connectors/connector-directory.ts';
import type { WebhookListeners } from '../domain/webhooks/webhook-listeners.ts';
import { SHOPIFY_SYNC_ORDER } from '../jobs/shopify-sync-order.ts';
import { WEBHOOKS_FAN_OUT } from '../jobs/webhooks-fan-out.ts';
import { WOOCOMMERCE_SYNC_ORDER } from '../jobs/woocommerce-sync-order.ts';
import type { EventType } from './catalogue.ts';
import type { Subscriber } from './outbox.ts';

/** The events a shop connector pushes back to the shop (tracking). */
const SHOP_EVENTS: ReadonlySet<EventType> = new Set(['order.created', 'order.status_changed']);

/**
 * Every subscriber of the outbox, in one list: webhook delivery, and each shop connector that is
 * configured, with their own job and their own cached "does this brand listen" answer; automation
 * subscriptions add their entry here.
 */
export function subscribers(parts: {
  webhooks: WebhookListeners;
  /** Null when the Shopify connector is not configured. */
  shopify: ConnectorDirectory | null;
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
      listens: (brandId, type) => SHOP_EVENTS.has(type) && shopify.hasActiveLink('shopify', brandId),
    });
  }
  const woocommerce = parts.woocommerce;
  if (woocommerce) {
    list.push({
      name: 'woocommerce',
      job: WOOCOMMERCE_SYNC_ORDER.name,
      listens: (brandId, type) => SHOP_EVENTS.has(type) && woocommerce.hasActiveLink('woocommerce', brandId),
    });
  }
  return list;
}
