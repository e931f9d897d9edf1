import { describe, expect, it } from 'vitest';
import { prestashopWebservice } from '../src/connectors/prestashop/webservice-client.ts';
import { ShopApiError } from '../src/connectors/shop-api-error.ts';
import { shopifyAdminClient } from '../src/connectors/shopify/admin-client.ts';
import { wooRestClient } from '../src/connectors/woocommerce/rest-client.ts';
import type { JsonResponse } from '../src/infra/http/json-request.ts';

/**
 * One error type for every shop API failure: each platform's client throws a ShopApiError naming
 * its platform and what kind of failure it is, with the message it always had.
 */
const answering =
  (status: number, text = '{}') =>
  async (): Promise<JsonResponse> => ({ status, retryAfter: null, text });

const clients = (status: number, text?: string) => ({
  shopify: () =>
    shopifyAdminClient({
      adminOriginTemplate: 'https://{shop}',
      apiKey: 'k',
      apiSecret: 's',
      request: answering(status, text),
    }).graphql('acme.myshopify.com', 'shpat_x', '{ shop { name } }'),
  woocommerce: () =>
    wooRestClient({ request: answering(status, text) }).get(
      'https://shop.example',
      { consumerKey: 'ck_x', consumerSecret: 'cs_x' },
      '/wc/v3/orders',
    ),
  prestashop: () =>
    prestashopWebservice({ request: answering(status, text) }).get(
      'https://shop.example',
      'K'.repeat(32),
      'orders',
    ),
});

const failure = (call: () => Promise<unknown>) =>
  call().then(
    () => expect.fail('no error'),
    (e: unknown) => e,
  );

describe('a shop API failure', () => {
  it.each([
    ['shopify', 401, 'unauthorized', 'Shopify answered 401'],
    ['shopify', 503, 'retry_later', 'Shopify answered 503'],
    ['shopify', 404, 'request_failed', 'Shopify answered 404'],
    ['woocommerce', 401, 'unauthorized', 'the shop refused the API key (401 not a WooCommerce REST answer)'],
    ['woocommerce', 503, 'retry_later', 'the shop answered 503 (maintenance?)'],
    ['woocommerce', 404, 'request_failed', 'the shop answered 404 (not a WooCommerce REST answer)'],
    ['prestashop', 503, 'retry_later', 'the shop answered 503: HTTP 503'],
    ['prestashop', 404, 'request_failed', 'GET /api/orders: HTTP 404'],
  ] as const)('%s %i: a ShopApiError, %s, with its message', async (platform, status, kind, message) => {
    const err = await failure(clients(status, '')[platform]);
    expect(err).toBeInstanceOf(ShopApiError);
    expect(err).toMatchObject({ platform, failure: kind, message });
  });

  it('keeps the HTTP status and the platform’s code of a refused request', async () => {
    const err = await failure(clients(404, '{"code":"rest_no_route","message":"No route"}').woocommerce);
    expect(err).toMatchObject({
      platform: 'woocommerce',
      failure: 'request_failed',
      status: 404,
      code: 'rest_no_route',
    });
  });
});
