import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PrestaShopRequestFailed,
  PrestaShopRetryLater,
  prestashopWebservice,
} from '../src/connectors/prestashop/webservice-client.ts';
import {
  ShopifyRequestFailed,
  ShopifyRetryLater,
  shopifyAdminClient,
} from '../src/connectors/shopify/admin-client.ts';
import { WooRequestFailed, WooRetryLater, wooRestClient } from '../src/connectors/woocommerce/rest-client.ts';
import { jsonRequester } from '../src/infra/http/json-request.ts';
import { outboundClient } from '../src/infra/http/outbound-client.ts';
import { sendWebhook } from '../src/infra/http/outbound-http.ts';
import { type LoopbackCounter, startLoopbackCounter } from './support/loopback-counter.ts';

/**
 * Issue #23: every outbound call (webhook deliveries, the WooCommerce, PrestaShop and Shopify
 * clients) connects to the address the SSRF guard checked. The resolver answers a public address
 * when first asked and 127.0.0.1 afterwards (DNS rebinding); the host is `localhost`, so a client
 * that resolved again by itself would reach the loopback listener below. Production's policy: no
 * insecure allowance.
 */
let loopback: LoopbackCounter;
let origin: string;

beforeAll(async () => {
  loopback = await startLoopbackCounter();
  origin = `https://localhost:${loopback.port}`;
});
afterAll(() => loopback.close());

function rebindingClient() {
  let asked = 0;
  const lookup = async () => (++asked === 1 ? ['93.184.216.34'] : ['127.0.0.1']);
  return outboundClient({ allowInsecure: false, lookup });
}

describe('a DNS answer changed between the check and the connection', () => {
  it('never takes a webhook delivery to loopback', async () => {
    const result = await sendWebhook(rebindingClient(), {
      url: `${origin}/hook`,
      headers: {},
      body: '{}',
      timeoutMs: 500,
    });
    expect(result).toMatchObject({ ok: false, status: null });
    expect(loopback.connections).toBe(0);
  });

  it('never takes a WooCommerce call to loopback', async () => {
    const woo = wooRestClient({ request: jsonRequester(rebindingClient()), timeoutMs: 500 });
    await expect(
      woo.get(origin, { consumerKey: 'ck_x', consumerSecret: 'cs_x' }, '/wc/v3/orders'),
    ).rejects.toBeInstanceOf(WooRetryLater);
    expect(loopback.connections).toBe(0);
  });

  it('never takes a PrestaShop Webservice call to loopback', async () => {
    const ws = prestashopWebservice({ request: jsonRequester(rebindingClient()), timeoutMs: 500 });
    await expect(ws.get(origin, 'K'.repeat(32), 'orders')).rejects.toBeInstanceOf(PrestaShopRetryLater);
    expect(loopback.connections).toBe(0);
  });

  it('never takes a Shopify Admin call to loopback', async () => {
    const admin = shopifyAdminClient({
      adminOriginTemplate: `${origin}/{shop}`,
      apiKey: 'k',
      apiSecret: 's',
      request: jsonRequester(rebindingClient()),
      timeoutMs: 500,
    });
    await expect(admin.graphql('acme.myshopify.com', 'shpat_x', '{ shop { name } }')).rejects.toBeInstanceOf(
      ShopifyRetryLater,
    );
    expect(loopback.connections).toBe(0);
  });
});

describe('a shop whose host now resolves to an internal address', () => {
  const shops = () =>
    jsonRequester(
      outboundClient({
        allowInsecure: false,
        lookup: async () => ['10.0.0.1'],
        publicRule: 'the shop must be reachable at a public address',
      }),
    );
  const refusal =
    'url: shop.example.test is not an allowed address; the shop must be reachable at a public address';

  it('is a failed call, not a retry, and the error says only that the address is not allowed', async () => {
    const woo = wooRestClient({ request: shops() });
    const wooErr = await woo
      .get('https://shop.example.test', { consumerKey: 'ck_x', consumerSecret: 'cs_x' }, '/wc/v3/orders')
      .catch((e: unknown) => e);
    expect(wooErr).toBeInstanceOf(WooRequestFailed);
    expect((wooErr as Error).message).toBe(`the shop's address is refused: ${refusal}`);

    const ws = prestashopWebservice({ request: shops() });
    const psErr = await ws
      .get('https://shop.example.test', 'K'.repeat(32), 'orders')
      .catch((e: unknown) => e);
    expect(psErr).toBeInstanceOf(PrestaShopRequestFailed);
    expect((psErr as Error).message).toBe(`the shop's address is refused: ${refusal}`);

    const admin = shopifyAdminClient({
      adminOriginTemplate: 'https://{shop}',
      apiKey: 'k',
      apiSecret: 's',
      request: shops(),
    });
    const shopifyErr = await admin
      .graphql('acme.myshopify.com', 'shpat_x', '{ shop { name } }')
      .catch((e: unknown) => e);
    expect(shopifyErr).toBeInstanceOf(ShopifyRequestFailed);
    expect((shopifyErr as Error).message).not.toContain('10.0.0.1');
  });
});
