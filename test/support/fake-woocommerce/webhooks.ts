import { createHmac, randomBytes } from 'node:crypto';
import { postJson } from '../fake-shopify/delivery.ts';
import { bodyHmac } from '../fake-shopify/signing.ts';
import { phpJsonEncode } from '../php-json.ts';
import { gmtTime, wallTime } from './dates.ts';
import { orderDocument } from './documents.ts';
import type { Webhook, WebhookDeliveryLog, WooShop } from './state.ts';

/**
 * Webhook delivery as WC_Webhook does it (plugins/woocommerce/includes/class-wc-webhook.php):
 * - an event does not POST at once: it schedules one Action Scheduler action per (webhook, resource),
 *   and a second event on the same order while that action is still pending is absorbed by it
 *   (wc_webhook_process_delivery). The payload is built when the action runs, from the order as it
 *   is then — flushWebhooks() is that queue runner.
 * - the body is the REST API v3 answer for the resource, wp_json_encode'd; X-WC-Webhook-Signature is
 *   the base64 HMAC-SHA256 of those exact bytes with the webhook's secret.
 * - X-WC-Webhook-Delivery-ID is wp_hash(webhook id . current unix second): two deliveries of one
 *   webhook in the same second carry the same "delivery id".
 * - no retries: a failed delivery is only counted. A 2xx, 300, 301 or 302 answer resets
 *   failure_count; any other answer (or none) runs failed_delivery(): when failure_count is already
 *   above woocommerce_max_webhook_delivery_failures (5) the webhook becomes `disabled`, otherwise the
 *   count goes up. So the 7th consecutive failure disables it (the docs say "after 5").
 * - creating an active webhook sends a ping: a form body `webhook_id=N`, unsigned, whose failure is
 *   ignored by the REST API and not counted.
 */

const TOPIC_HOOKS: Record<string, string[]> = {
  'order.created': ['woocommerce_new_order'],
  'order.updated': [
    'woocommerce_update_order',
    'woocommerce_order_refunded',
    'woocommerce_delete_order_refund',
  ],
  'order.deleted': ['wp_trash_post', 'woocommerce_trash_order'],
  'order.restored': ['untrashed_post', 'woocommerce_untrash_order'],
};
const OTHER_RESOURCES = ['coupon', 'customer', 'product'];
const EVENTS = ['created', 'updated', 'deleted', 'restored'];

export function isValidTopic(topic: string): boolean {
  if (TOPIC_HOOKS[topic]) return true;
  const [resource, event] = topic.split('.');
  if (resource === 'action') return Boolean(event);
  return OTHER_RESOURCES.includes(resource ?? '') && EVENTS.includes(event ?? '');
}

/** WC_Webhook's delivery timeout is MINUTE_IN_SECONDS; tests may shorten it. */
export interface DeliveryOptions {
  timeoutMs: number;
  userAgent: string;
  /** wp_hash() is keyed with the site's salts. */
  salt: string;
}

export function webhookDocument(shop: WooShop, webhook: Webhook): Record<string, unknown> {
  const [resource, event] = webhook.topic.split('.');
  const api = `${shop.url}/wp-json/wc/v3`;
  return {
    id: webhook.id,
    name: webhook.name,
    status: webhook.status,
    topic: webhook.topic,
    resource,
    event,
    hooks: TOPIC_HOOKS[webhook.topic] ?? [],
    delivery_url: webhook.deliveryUrl,
    date_created: wallTime(webhook.createdAt, shop.timeZone),
    date_created_gmt: gmtTime(webhook.createdAt),
    date_modified: wallTime(webhook.modifiedAt, shop.timeZone),
    date_modified_gmt: gmtTime(webhook.modifiedAt),
    _links: {
      self: [{ href: `${api}/webhooks/${webhook.id}` }],
      collection: [{ href: `${api}/webhooks` }],
    },
  };
}

/** The default secret when none is given: wp_generate_password( 50, true, true ). */
export function generatedSecret(): string {
  const chars =
    'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_ []{}<>~`+=,.;:/?|';
  return Array.from(randomBytes(50), (b) => chars[b % chars.length]).join('');
}

/** An order event: one pending action per active webhook of the topic, unless one is already queued. */
export function queueOrderEvent(shop: WooShop, orderId: number, event: 'created' | 'updated'): void {
  for (const webhook of shop.webhooks) {
    if (webhook.status !== 'active' || webhook.topic !== `order.${event}`) continue;
    if (shop.pending.some((p) => p.webhookId === webhook.id && p.orderId === orderId)) continue;
    shop.pending.push({ webhookId: webhook.id, orderId });
  }
}

/** Runs the queue: every pending action delivers the order as it is now. */
export async function runQueue(shop: WooShop, options: DeliveryOptions): Promise<WebhookDeliveryLog[]> {
  const due = shop.pending.splice(0);
  const logs: WebhookDeliveryLog[] = [];
  for (const { webhookId, orderId } of due) {
    const webhook = shop.webhooks.find((w) => w.id === webhookId);
    const order = shop.orders.find((o) => o.id === orderId);
    // A webhook deleted or paused since, or an order deleted: the action finds nothing to send.
    if (webhook?.status !== 'active' || !order) continue;
    logs.push(await deliver(shop, webhook, phpJsonEncode(orderDocument(shop, order)), options));
  }
  return logs;
}

async function deliver(
  shop: WooShop,
  webhook: Webhook,
  body: string,
  options: DeliveryOptions,
): Promise<WebhookDeliveryLog> {
  const [resource, event] = webhook.topic.split('.');
  const unixSecond = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': options.userAgent,
    'X-WC-Webhook-Source': `${shop.url}/`,
    'X-WC-Webhook-Topic': webhook.topic,
    'X-WC-Webhook-Resource': resource!,
    'X-WC-Webhook-Event': event!,
    'X-WC-Webhook-Signature': bodyHmac(webhook.secret, body),
    'X-WC-Webhook-ID': String(webhook.id),
    'X-WC-Webhook-Delivery-ID': createHmac('md5', options.salt)
      .update(`${webhook.id}${unixSecond}`)
      .digest('hex'),
  };
  const result = await postJson(webhook.deliveryUrl, body, headers, options.timeoutMs);
  if (result.status >= 200 && result.status < 303) {
    webhook.failureCount = 0;
  } else if (webhook.failureCount > shop.maxWebhookFailures) {
    webhook.status = 'disabled';
  } else {
    webhook.failureCount += 1;
  }
  const log: WebhookDeliveryLog = {
    webhookId: webhook.id,
    kind: 'delivery',
    url: webhook.deliveryUrl,
    headers,
    body,
    result,
    at: Date.now(),
  };
  shop.deliveries.push(log);
  return log;
}

/** WC_Webhook::deliver_ping(): sent once when an active webhook is created. */
export async function ping(shop: WooShop, webhook: Webhook, options: DeliveryOptions): Promise<void> {
  const body = `webhook_id=${webhook.id}`;
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': options.userAgent };
  const result = await postJson(webhook.deliveryUrl, body, headers, options.timeoutMs);
  shop.deliveries.push({
    webhookId: webhook.id,
    kind: 'ping',
    url: webhook.deliveryUrl,
    headers,
    body,
    result,
    at: Date.now(),
  });
}
