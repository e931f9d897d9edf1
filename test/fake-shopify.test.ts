import '@shopify/shopify-api/adapters/node';
import { ApiVersion, LogSeverity, shopifyApi } from '@shopify/shopify-api';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { schemaForWebhook } from 'shopify-webhook-schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeShopify, startFakeShopify } from './support/fake-shopify.ts';
import {
  adminGraphql,
  authorizeUrl,
  exchangeCode,
  installApp,
  MUTATIONS,
  TEST_API_KEY,
  TEST_API_SECRET,
} from './support/shopify-client.ts';
import { type ReceivedWebhook, type Receiver, startReceiver } from './support/webhook-receiver.ts';

// The fake's own tests: its OAuth and webhooks are checked with Shopify's library, its payloads
// with the JSON schemas inferred from Shopify's documented samples.

const Ajv2020 = (Ajv2020Module as any).default ?? Ajv2020Module;
const addFormats = (addFormatsModule as any).default ?? addFormatsModule;
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));

const SHOP = 'acme.myshopify.com';
const VERSION = '2025-10';
const shopify = shopifyApi({
  apiKey: TEST_API_KEY,
  apiSecretKey: TEST_API_SECRET,
  scopes: ['read_orders'],
  hostName: '127.0.0.1',
  hostScheme: 'http',
  apiVersion: ApiVersion.October25,
  isEmbeddedApp: false,
  logger: { level: LogSeverity.Error },
});

function schemaErrors(topic: string, body: string) {
  const validate = ajv.compile(schemaForWebhook(VERSION, topic));
  return validate(JSON.parse(body)) ? [] : validate.errors;
}

function shopifyValidates(hook: ReceivedWebhook, rawBody = hook.body) {
  const rawRequest = { method: 'POST', url: hook.path, headers: hook.headers } as any;
  return shopify.webhooks.validate({ rawBody, rawRequest, rawResponse: {} as any });
}

let fake: FakeShopify;
let receiver: Receiver;
let answer: (hook: ReceivedWebhook) => number = () => 200;

beforeAll(async () => {
  receiver = await startReceiver((hook) => ({ status: answer(hook) }));
  fake = await startFakeShopify({
    apiKey: TEST_API_KEY,
    apiSecret: TEST_API_SECRET,
    privacyWebhookUrl: receiver.url('/privacy'),
  });
  fake.addShop(SHOP);
  const token = await installApp(fake, SHOP);
  for (const topic of ['ORDERS_PAID', 'ORDERS_CANCELLED', 'APP_UNINSTALLED']) {
    const { json } = await adminGraphql(fake, SHOP, token, MUTATIONS.subscribe, {
      topic,
      sub: { callbackUrl: receiver.url(`/shopify/${topic}`), format: 'JSON' },
    });
    expect(json.data.webhookSubscriptionCreate.userErrors).toEqual([]);
  }
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

describe('OAuth', () => {
  it("signs the approval callback so that Shopify's library accepts it, and only untampered", async () => {
    const callback = new URL(fake.approve(authorizeUrl(fake, SHOP, { state: 'n0nce-42' })));
    expect(callback.pathname).toBe('/connectors/shopify/callback');
    const query = Object.fromEntries(callback.searchParams);
    expect(Object.keys(query).sort()).toEqual(['code', 'hmac', 'host', 'shop', 'state', 'timestamp']);
    expect(query).toMatchObject({ shop: SHOP, state: 'n0nce-42' });
    expect(await shopify.utils.validateHmac(query)).toBe(true);
    expect(await shopify.utils.validateHmac({ ...query, state: 'another' })).toBe(false);
    expect(await shopify.utils.validateHmac({ ...query, shop: 'evil.myshopify.com' })).toBe(false);
  });

  it('answers the authorize page with a 302 to the same signed callback', async () => {
    const response = await fetch(authorizeUrl(fake, SHOP), { redirect: 'manual' });
    expect(response.status).toBe(302);
    const query = Object.fromEntries(new URL(response.headers.get('location')!).searchParams);
    expect(await shopify.utils.validateHmac(query)).toBe(true);
    expect(fake.shop(SHOP).authorizeRequests.at(-1)).toMatchObject({
      clientId: TEST_API_KEY,
      grantOptions: [],
    });
  });

  it('exchanges a code once, for the right app only', async () => {
    const code = () => new URL(fake.approve(authorizeUrl(fake, SHOP))).searchParams.get('code')!;
    const wrongSecret = await exchangeCode(fake, SHOP, {
      client_id: TEST_API_KEY,
      client_secret: 'not-the-secret',
      code: code(),
    });
    expect(wrongSecret.status).toBe(400);
    const good = { client_id: TEST_API_KEY, client_secret: TEST_API_SECRET, code: code() };
    const first = await exchangeCode(fake, SHOP, good);
    expect(first.status).toBe(200);
    expect(first.json.access_token).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(first.json.scope).toBe('read_orders,write_merchant_managed_fulfillment_orders,write_shipping');
    const again = await exchangeCode(fake, SHOP, good);
    expect(again).toMatchObject({ status: 400, json: { error: 'invalid_request' } });
  });
});

describe('webhooks', () => {
  it("are signed and headed so that Shopify's library validates them; a tampered body fails", async () => {
    const order = fake.newOrder(SHOP);
    const before = receiver.received.length;
    expect(await fake.sendWebhook(SHOP, 'orders/paid', order.payload)).toMatchObject({ status: 200 });
    const hook = receiver.received[before]!;
    expect(hook.body).toBe(order.payload);
    const result = await shopifyValidates(hook);
    expect(result).toMatchObject({ valid: true, topic: 'ORDERS_PAID', domain: SHOP, apiVersion: VERSION });
    expect(hook.headers['x-shopify-webhook-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(hook.headers['x-shopify-event-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(hook.headers['x-shopify-triggered-at']!)).not.toBeNaN();
    const tampered = hook.body.replace('"paid"', '"pending"');
    expect(tampered).not.toBe(hook.body);
    expect(await shopifyValidates(hook, tampered)).toMatchObject({ valid: false, reason: 'invalid_hmac' });
  });

  it('sends payloads that match the schemas of Shopify’s documented samples, for every topic', async () => {
    const paid = fake.newOrder(SHOP, {
      lineItems: [
        { title: 'Vase', quantity: 1, grams: 1200, price: '39.00' },
        { title: 'Bougie', quantity: 3, grams: 200, price: '12.50', sku: 'BOUGIE-3' },
      ],
      shippingLine: { code: 'dlv-same-day', source: 'delivery-orders', title: 'Livraison le jour même' },
    });
    const privacy = { orderIds: [paid.id] };
    const before = receiver.received.length;
    await fake.sendWebhook(SHOP, 'orders/paid', paid.payload);
    await fake.sendWebhook(SHOP, 'orders/cancelled', fake.cancelOrder(SHOP, paid.gid));
    await fake.sendWebhook(SHOP, 'customers/redact', fake.privacyPayload(SHOP, 'customers/redact', privacy));
    await fake.sendWebhook(
      SHOP,
      'customers/data_request',
      fake.privacyPayload(SHOP, 'customers/data_request', privacy),
    );
    await fake.sendWebhook(SHOP, 'shop/redact', fake.privacyPayload(SHOP, 'shop/redact'));
    await fake.sendWebhook(SHOP, 'app/uninstalled', fake.appUninstalledPayload(SHOP));
    const sent = receiver.received.slice(before);
    expect(sent.map((h) => h.headers['x-shopify-topic'])).toEqual([
      'orders/paid',
      'orders/cancelled',
      'customers/redact',
      'customers/data_request',
      'shop/redact',
      'app/uninstalled',
    ]);
    for (const hook of sent) expect(schemaErrors(hook.headers['x-shopify-topic']!, hook.body)).toEqual([]);
    expect(sent[2]!.path).toBe('/privacy');

    const order = JSON.parse(sent[0]!.body);
    expect(order).toMatchObject({
      financial_status: 'paid',
      total_price: '89.40',
      currency: 'EUR',
      total_weight: 1800,
    });
    expect(order.shipping_address).toMatchObject({
      address1: '12 Place Léon Blum',
      zip: '75011',
      city: 'Paris',
      country_code: 'FR',
      phone: '+33 6 12 34 56 78',
      // Geocoded as Shopify does a shipping address: the address's real point.
      latitude: 48.858828,
      longitude: 2.379506,
    });
    expect(order.shipping_lines[0]).toMatchObject({ code: 'dlv-same-day', source: 'delivery-orders' });
    expect(JSON.parse(sent[1]!.body)).toMatchObject({
      cancel_reason: 'customer',
      admin_graphql_api_id: paid.gid,
    });
  });

  it('the schema check is live: a payload without its id, or with a string id, is rejected', () => {
    const payload = JSON.parse(fake.newOrder(SHOP).payload);
    expect(schemaErrors('orders/paid', JSON.stringify({ ...payload, id: undefined }))).not.toEqual([]);
    expect(schemaErrors('orders/paid', JSON.stringify({ ...payload, id: String(payload.id) }))).not.toEqual(
      [],
    );
  });

  it('redelivers a failed delivery with the same webhook id, event id and signature', async () => {
    const order = fake.newOrder(SHOP);
    let calls = 0;
    answer = () => (++calls === 1 ? 500 : 200);
    try {
      expect((await fake.sendWebhook(SHOP, 'orders/paid', order.payload, { webhookId: 'wh-1' })).status).toBe(
        500,
      );
      await fake.redeliverFailed();
      await fake.redeliverFailed(); // nothing left: the retry succeeded
    } finally {
      answer = () => 200;
    }
    const attempts = receiver.received.filter((h) => h.headers['x-shopify-webhook-id'] === 'wh-1');
    expect(attempts).toHaveLength(2);
    const header = (name: string) => new Set(attempts.map((h) => h.headers[name]));
    for (const name of ['x-shopify-event-id', 'x-shopify-hmac-sha256', 'x-shopify-triggered-at']) {
      expect(header(name).size).toBe(1);
    }
    expect(
      fake.deliveries
        .find((d) => d.headers['X-Shopify-Webhook-Id'] === 'wh-1')!
        .attempts.map((a) => a.status),
    ).toEqual([500, 200]);
  });
});

describe('ids above 2^53', () => {
  it('are written as exact JSON numbers that JSON.parse would round, and match their gids', async () => {
    const order = fake.newOrder(SHOP);
    expect(BigInt(order.id)).toBeGreaterThan(2n ** 53n);
    expect(order.gid).toBe(`gid://shopify/Order/${order.id}`);
    expect(order.payload.startsWith(`{"id":${order.id},"admin_graphql_api_id":"${order.gid}"`)).toBe(true);
    expect(String(JSON.parse(order.payload).id)).not.toBe(order.id); // the trap the connector must avoid
    for (const match of order.payload.matchAll(/"admin_graphql_api_id":"gid:\/\/shopify\/\w+\/(\d+)"/g)) {
      expect(BigInt(match[1]!)).toBeGreaterThan(2n ** 53n);
    }
    const redact = fake.privacyPayload(SHOP, 'customers/redact', {
      customerId: '1152921504606846977',
      orderIds: [order.id],
    });
    expect(redact).toContain(`"orders_to_redact":[${order.id}]`);
    expect(redact).toContain('"customer":{"id":1152921504606846977,');
  });

  it('the fulfillment orders Shopify lists for the order carry gids', async () => {
    const order = fake.newOrder(SHOP);
    const token = await installApp(fake, SHOP);
    const { json } = await adminGraphql(fake, SHOP, token, MUTATIONS.order, { id: order.gid });
    const nodes = json.data.order.fulfillmentOrders.nodes;
    expect(nodes).toEqual([{ id: order.order.fulfillmentOrders[0]!.id, status: 'OPEN' }]);
    expect(nodes[0].id).toMatch(/^gid:\/\/shopify\/FulfillmentOrder\/\d{19}$/);
  });
});

describe('uninstall', () => {
  it('revokes the tokens and subscriptions, then sends app/uninstalled', async () => {
    const shop = 'bistro.myshopify.com';
    fake.addShop(shop);
    const token = await installApp(fake, shop);
    await adminGraphql(fake, shop, token, MUTATIONS.subscribe, {
      topic: 'APP_UNINSTALLED',
      sub: { callbackUrl: receiver.url('/bistro/uninstalled') },
    });
    const [delivery] = await fake.uninstall(shop);
    expect(delivery!.status).toBe(200);
    const hook = receiver.received.find((h) => h.path === '/bistro/uninstalled')!;
    expect(JSON.parse(hook.body)).toMatchObject({ myshopify_domain: shop, id: fake.shop(shop).shopId });
    expect(fake.shop(shop).webhookSubscriptions).toEqual([]);
    expect(
      (await adminGraphql(fake, shop, token, MUTATIONS.order, { id: 'gid://shopify/Order/1' })).status,
    ).toBe(401);
  });
});
