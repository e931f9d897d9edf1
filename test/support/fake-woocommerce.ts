import { randomBytes } from 'node:crypto';
import { newOrder, type OrderInput, orderDocument, starterProducts } from './fake-woocommerce/documents.ts';
import { answerRest } from './fake-woocommerce/rest.ts';
import { findOrder, setStatus, touch } from './fake-woocommerce/rest-orders.ts';
import {
  type ApiKey,
  type KeyPermissions,
  nextId,
  type OrderStatus,
  type WooAddress,
  type WooMode,
  type WooShop,
} from './fake-woocommerce/state.ts';
import {
  accessDenied,
  grantAccess,
  grantPage,
  validateAuthRequest,
  WcAuthError,
  withResult,
} from './fake-woocommerce/wc-auth.ts';
import { type DeliveryOptions, queueOrderEvent, runQueue } from './fake-woocommerce/webhooks.ts';
import { phpJsonEncode } from './php-json.ts';
import { type Answer, basicCredentials, type Call, splitShopPath, startLoopback } from './shop-http.ts';

export type { OrderInput } from './fake-woocommerce/documents.ts';
export type { WooShop } from './fake-woocommerce/state.ts';

/**
 * A faithful fake WooCommerce store (WordPress + WooCommerce 9) on 127.0.0.1, for the WooCommerce
 * bridge's tests. Each shop is a WordPress installed under a path: home_url() is
 * `http://127.0.0.1:PORT/{slug}`, its REST API `{url}/wp-json/wc/v3/…`, its key provisioning
 * `{url}/wc-auth/v1/authorize`. What it serves, from WooCommerce's REST API documentation and source:
 * orders (list with filters and X-WP-Total/X-WP-TotalPages/Link, get, update), order notes, products
 * and the weight-unit setting, webhooks CRUD with WooCommerce's delivery (see fake-woocommerce/
 * webhooks.ts), the Shipment Tracking extension when enabled, and the one-click key provisioning.
 * Every REST call lands in `shop.calls`, every webhook POST in `shop.deliveries`.
 *
 * Modes per shop: 'up'; 'down' (the whole site answers 503 maintenance with Retry-After, and its
 * webhook queue does not run); 'unauthorized' (every key revoked: callers are anonymous → 401).
 */
export interface FakeWooCommerceOptions {
  /** Accept http:// callback_url in /wc-auth (WooCommerce requires https). */
  insecureCallbacks?: boolean;
  /** Webhook and key-callback timeout; WooCommerce waits 60 s. */
  deliveryTimeoutMs?: number;
}

export interface ShopOptions {
  weightUnit?: WooShop['weightUnit'];
  /** The Shipment Tracking extension is installed (its REST routes exist). */
  shipmentTracking?: boolean;
  /** The site's timezone (Settings › General), Europe/Paris by default. */
  timeZone?: string;
  /** woocommerce_max_webhook_delivery_failures, 5 by default. */
  maxWebhookFailures?: number;
}

const MAINTENANCE: Answer = {
  status: 503,
  headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': '600' },
  body: '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>Briefly unavailable for scheduled maintenance. Check back in a minute.</h1></body></html>',
};

export async function startFakeWooCommerce(options: FakeWooCommerceOptions = {}) {
  const shops = new Map<string, WooShop>();
  const delivery: DeliveryOptions = {
    timeoutMs: options.deliveryTimeoutMs ?? 60_000,
    userAgent: 'WooCommerce/9.8.5 Hookshot (WordPress/6.8.1)',
    salt: randomBytes(32).toString('hex'),
  };
  const insecure = options.insecureCallbacks ?? false;

  async function route(call: Call): Promise<Answer> {
    const split = splitShopPath(call.url.pathname);
    const shop = split ? shops.get(split.slug) : undefined;
    if (!shop || !split) return { status: 404, body: 'Not Found' };
    if (shop.mode === 'down') return MAINTENANCE;
    if (split.rest.startsWith('/wp-json')) {
      const answer = await answerRest(shop, call, split.rest.slice('/wp-json'.length) || '/', delivery);
      shop.calls.push({
        method: call.method,
        path: split.rest,
        query: Object.fromEntries([...call.url.searchParams].filter(([k]) => k !== 'consumer_secret')),
        body: call.body,
        status: answer.status,
        consumerKey:
          call.url.searchParams.get('consumer_key') ??
          basicCredentials(call.headers.authorization)?.user ??
          null,
        at: Date.now(),
      });
      return answer;
    }
    try {
      if (call.method === 'GET' && split.rest === '/wc-auth/v1/authorize')
        return grantPage(shop, validateAuthRequest(call.url.searchParams, insecure));
      if (call.method === 'GET' && split.rest === '/wc-auth/v1/access_granted') {
        const nonce = call.url.searchParams.get('wc_auth_nonce') ?? '';
        const granted = shop.authNonces.get(nonce);
        if (!granted) throw new WcAuthError('Invalid nonce verification');
        shop.authNonces.delete(nonce);
        const location = await grantAccess(shop, validateAuthRequest(granted, insecure), delivery.timeoutMs);
        return { status: 302, headers: { location }, body: '' };
      }
    } catch (error) {
      if (error instanceof WcAuthError) return accessDenied(error.message);
      throw error;
    }
    return { status: 404, body: 'Not Found' };
  }

  const server = await startLoopback(route);

  function shopState(slug: string): WooShop {
    const shop = shops.get(slug);
    if (!shop) throw new Error(`fake WooCommerce: no shop ${slug} (call addShop first)`);
    return shop;
  }

  function orderOf(slug: string, id: number) {
    const order = findOrder(shopState(slug), String(id));
    if (!order) throw new Error(`fake WooCommerce: ${slug} has no order ${id}`);
    return order;
  }

  /** The shop the authorize URL points at, and its validated request. */
  function authorizeRequest(authorizeUrl: string) {
    const url = new URL(authorizeUrl);
    const split = splitShopPath(url.pathname);
    const shop = split && split.rest === '/wc-auth/v1/authorize' ? shops.get(split.slug) : undefined;
    if (!shop) throw new WcAuthError(`no shop at ${url.pathname}`);
    return { shop, data: validateAuthRequest(url.searchParams, insecure) };
  }

  const fake = {
    port: server.port,
    /** The store URL of `slug` (home_url without the trailing slash). */
    url: (slug: string) => `http://127.0.0.1:${server.port}/${slug}`,

    addShop(slug: string, shopOptions: ShopOptions = {}): WooShop {
      if (shops.has(slug)) return shops.get(slug)!;
      const shop: WooShop = {
        slug,
        url: fake.url(slug),
        timeZone: shopOptions.timeZone ?? 'Europe/Paris',
        weightUnit: shopOptions.weightUnit ?? 'kg',
        currency: 'EUR',
        shipmentTracking: shopOptions.shipmentTracking ?? false,
        maxWebhookFailures: shopOptions.maxWebhookFailures ?? 5,
        mode: 'up',
        keys: [],
        products: [],
        orders: [],
        notes: [],
        trackings: new Map(),
        webhooks: [],
        pending: [],
        deliveries: [],
        calls: [],
        authNonces: new Map(),
        sequence: 700,
      };
      shop.products.push(...starterProducts(shop));
      shops.set(slug, shop);
      return shop;
    },

    shop: shopState,

    /** A key pair made in WooCommerce › Settings › Advanced › REST API. */
    createKey(slug: string, permissions: KeyPermissions = 'read_write'): ApiKey {
      const shop = shopState(slug);
      const key: ApiKey = {
        keyId: shop.keys.reduce((max, k) => Math.max(max, k.keyId), 0) + 1,
        consumerKey: `ck_${randomBytes(20).toString('hex')}`,
        consumerSecret: `cs_${randomBytes(20).toString('hex')}`,
        permissions,
        description: 'Delivery Orders',
      };
      shop.keys.push(key);
      return key;
    },

    addProduct(slug: string, product: { name: string; sku?: string; price?: string; weight: string }) {
      const shop = shopState(slug);
      const created = {
        id: nextId(shop),
        name: product.name,
        sku: product.sku ?? '',
        price: product.price ?? '10.00',
        weight: product.weight,
        dimensions: { length: '', width: '', height: '' },
      };
      shop.products.push(created);
      return created;
    },

    /** A customer checks out: the order is stored and order.created is queued for its webhooks. */
    createOrder(slug: string, input: OrderInput = {}) {
      const shop = shopState(slug);
      const order = newOrder(shop, input);
      order.createdAt = Math.floor(order.createdAt / 1000) * 1000;
      order.modifiedAt = order.createdAt;
      shop.orders.push(order);
      queueOrderEvent(shop, order.id, 'created');
      return { id: order.id, document: orderDocument(shop, order) };
    },

    /** The merchant edits the order in wp-admin (status, shipping address, note): order.updated is queued. */
    updateOrder(
      slug: string,
      id: number,
      change: { status?: OrderStatus; shipping?: Partial<WooAddress>; customerNote?: string },
    ) {
      const shop = shopState(slug);
      const order = orderOf(slug, id);
      if (change.shipping) Object.assign(order.shipping, change.shipping);
      if (change.customerNote !== undefined) order.customerNote = change.customerNote;
      if (change.status && change.status !== order.status) setStatus(shop, order, change.status);
      else touch(shop, order);
      return orderDocument(shop, order);
    },

    /** GET /orders/{id} as the API writes it (the exact bytes a webhook for it would carry). */
    orderJson: (slug: string, id: number) => phpJsonEncode(orderDocument(shopState(slug), orderOf(slug, id))),

    /** Runs the shop's Action Scheduler queue: every pending webhook delivery is POSTed now. */
    async flushWebhooks(slug: string) {
      const shop = shopState(slug);
      if (shop.mode === 'down') return [];
      return runQueue(shop, delivery);
    },

    /** The merchant clicks "Approve" on the authorize page: resolves to the return_url redirect. */
    async approve(authorizeUrl: string): Promise<string> {
      const { shop, data } = authorizeRequest(authorizeUrl);
      return grantAccess(shop, data, delivery.timeoutMs);
    },

    /** The merchant clicks "Deny": the return_url with success=0. */
    deny(authorizeUrl: string): string {
      const { data } = authorizeRequest(authorizeUrl);
      return withResult(data.return_url!, 0, data.user_id!);
    },

    setMode(slug: string, mode: WooMode): void {
      shopState(slug).mode = mode;
    },

    close: () => server.close(),
  };
  return fake;
}

export type FakeWooCommerce = Awaited<ReturnType<typeof startFakeWooCommerce>>;
