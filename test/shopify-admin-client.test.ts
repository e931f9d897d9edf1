import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ShopifyRequestFailed,
  ShopifyRetryLater,
  ShopifyUnauthorized,
  shopifyAdminClient,
} from '../src/connectors/shopify/admin-client.ts';
import { SHOPIFY_API_VERSION } from '../src/connectors/shopify/api-version.ts';
import { shopifyOperations } from '../src/connectors/shopify/operations.ts';
import { jsonRequester } from '../src/infra/http/json-request.ts';
import { outboundClient } from '../src/infra/http/outbound-client.ts';
import { type FakeShopify, startFakeShopify } from './support/fake-shopify.ts';
import { newShop } from './support/shopify.ts';

/**
 * The Admin client and operations against the fake Shopify: the code exchange, the pinned version,
 * Shopify's refusals (401, 400), its outages (503, 429, THROTTLED) as the caller must see them, and
 * what linking registers. (The arithmetic of throttling is unit-tested in admin-client.test.ts.)
 */
const KEY = 'client-id';
const SECRET = 'shpss_client_secret';
let fake: FakeShopify;

beforeAll(async () => {
  fake = await startFakeShopify({ apiKey: KEY, apiSecret: SECRET });
});
afterEach(() => fake.setMode('up'));
afterAll(() => fake?.close());

const NOW = new Date('2026-03-02T10:00:00Z');
/** Our tracking number, looked for among the order's fulfillments. */
const REF = 'DLV-7K3M9Q2XHP';

function client(apiSecret = SECRET) {
  const waits: number[] = [];
  let now = NOW.getTime();
  const c = shopifyAdminClient({
    adminOriginTemplate: fake.adminOriginTemplate,
    apiKey: KEY,
    apiSecret,
    request: jsonRequester(outboundClient({ allowInsecure: true })),
    clock: () => new Date(now),
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { c, waits, operations: shopifyOperations(c) };
}

/** A shop of the fake with the app installed: the token from a real code exchange. */
async function installed() {
  const shop = newShop();
  fake.addShop(shop);
  const callback = new URL(
    fake.approve(
      `http://127.0.0.1:${fake.port}/${shop}/admin/oauth/authorize?${new URLSearchParams({
        client_id: KEY,
        scope: 'read_orders',
        redirect_uri: 'http://127.0.0.1/connectors/shopify/callback',
        state: 's',
      })}`,
    ),
  );
  const { c } = client();
  const { accessToken, scope } = await c.exchangeCode(shop, callback.searchParams.get('code')!);
  expect(scope).toBe('read_orders');
  expect(fake.shop(shop).accessTokens).toEqual([accessToken]);
  return { shop, token: accessToken };
}

const URLS = {
  webhooks: 'https://dlv.example/connectors/shopify/webhooks',
  rates: 'https://dlv.example/connectors/shopify/rates',
  carrierName: 'Livraison DLV',
};

describe('the code exchange', () => {
  it('refuses a used code, a wrong secret, and answers for an unknown shop', async () => {
    const { shop } = await installed();
    const { c } = client();
    // The code of installed() was single use.
    await expect(c.exchangeCode(shop, 'not-a-code')).rejects.toBeInstanceOf(ShopifyRequestFailed);
    await expect(client('wrong').c.exchangeCode(shop, 'x')).rejects.toBeInstanceOf(ShopifyRequestFailed);
    expect(fake.shop(shop).accessTokens).toHaveLength(1);
  });
});

describe('GraphQL at the pinned version', () => {
  it('registers the webhooks and the carrier service, and refuses to register them twice', async () => {
    const { shop, token } = await installed();
    const { operations } = client();
    const { remoteIds, warnings } = await operations.register(shop, token, URLS);
    expect(warnings).toEqual([]);
    const state = fake.shop(shop);
    expect(state.calls.map((call) => call.operation)).toEqual([
      'webhookSubscriptionCreate',
      'webhookSubscriptionCreate',
      'webhookSubscriptionCreate',
      'carrierServiceCreate',
    ]);
    expect(remoteIds.webhookSubscriptions).toEqual(state.webhookSubscriptions.map((s) => s.id));
    // 2025-10 names the address `uri`; `callbackUrl` is deprecated there.
    for (const call of state.calls.filter((c) => c.operation === 'webhookSubscriptionCreate'))
      expect(call.variables.webhookSubscription).toEqual({ uri: URLS.webhooks, format: 'JSON' });
    expect(state.webhookSubscriptions.map((s) => s.addressField)).toEqual(['uri', 'uri', 'uri']);
    expect(remoteIds.carrierService).toBe(state.carrierServices[0]!.id);
    // The name Shopify will report our rates under on the shop's orders (`source`).
    expect(remoteIds.carrierServiceName).toBe('Livraison DLV');

    // Shopify refuses a second subscription of the same address: what the second try made is undone.
    const again = await operations.register(shop, token, URLS).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ShopifyRequestFailed);
    expect((again as Error).message).toMatch(/already been taken/);
    expect(state.webhookSubscriptions).toHaveLength(3);
    expect(state.carrierServices).toHaveLength(1);

    expect(await operations.unregister(shop, token, remoteIds)).toEqual([]);
    expect(state.webhookSubscriptions).toEqual([]);
    expect(state.carrierServices).toEqual([]);
  });

  it('reports a refused token as ShopifyUnauthorized', async () => {
    const { shop } = await installed();
    const { operations } = client();
    const err = await operations
      .fulfillmentState(shop, 'shpat_revoked', 'gid://shopify/Order/1', REF)
      .catch((e) => e);
    expect(err).toBeInstanceOf(ShopifyUnauthorized);
    expect(fake.shop(shop).calls.at(-1)?.outcome).toBe('unauthorized');
  });

  it('an order the shop does not have is a failed request, not a retry', async () => {
    const { shop, token } = await installed();
    const { operations } = client();
    await expect(
      operations.fulfillmentState(shop, token, 'gid://shopify/Order/123', REF),
    ).rejects.toBeInstanceOf(ShopifyRequestFailed);
  });

  it('Shopify down: retry later with the queue’s backoff; 429: at Retry-After', async () => {
    const { shop, token } = await installed();
    const { operations } = client();
    fake.setMode('down');
    const down = await operations.fulfillmentState(shop, token, 'gid://shopify/Order/1', REF).catch((e) => e);
    expect(down).toBeInstanceOf(ShopifyRetryLater);
    expect((down as ShopifyRetryLater).retryAt).toBeNull();
    fake.setMode('rate-limited');
    const limited = await operations
      .fulfillmentState(shop, token, 'gid://shopify/Order/1', REF)
      .catch((e) => e);
    expect(limited).toBeInstanceOf(ShopifyRetryLater);
    expect((limited as ShopifyRetryLater).retryAt).toEqual(new Date(NOW.getTime() + 2000));
  });

  it('THROTTLED: waits the refill Shopify states inline, then hands the wait to the caller', async () => {
    const { shop, token } = await installed();
    const { operations, waits } = client();
    fake.setMode('throttled');
    const err = await operations.fulfillmentState(shop, token, 'gid://shopify/Order/1', REF).catch((e) => e);
    expect(err).toBeInstanceOf(ShopifyRetryLater);
    // The query asks 33 points, the bucket is empty, 100 points come back per second: 330 ms.
    expect(waits).toEqual([330, 330]);
    expect((err as ShopifyRetryLater).retryAt).toEqual(new Date(NOW.getTime() + 660 + 330));
    expect(fake.shop(shop).calls.map((c) => c.outcome)).toEqual(['throttled', 'throttled', 'throttled']);
  });

  it('a version Shopify does not serve answers 404, and our pinned one is served', async () => {
    const { shop, token } = await installed();
    const res = await fetch(`http://127.0.0.1:${fake.port}/${shop}/admin/api/2019-04/graphql.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shopify-access-token': token },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(res.status).toBe(404);
    expect(SHOPIFY_API_VERSION).toMatch(/^\d{4}-(01|04|07|10)$/);
    const { operations } = client();
    await expect(operations.fulfillmentState(shop, token, fake.newOrder(shop).gid, REF)).resolves.toEqual({
      open: [expect.any(String)],
      existing: null,
    });
  });
});
