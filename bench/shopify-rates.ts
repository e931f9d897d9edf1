import { createHmac, randomBytes } from 'node:crypto';
import { credentialCipher } from '../src/connectors/credentials.ts';
import type { Pool } from '../src/db/pool.ts';
import { storesOn } from '../src/db/stores.ts';
import type { Deps } from '../src/deps.ts';
import { prefixedId } from '../src/domain/ids.ts';
import type { LoadOptions } from './harness.ts';
import { BENCH_OPERATOR } from './harness.ts';

/** The Shopify app the bench API runs with (SHOPIFY_* env): checkout rates need the connector on. */
export const SHOPIFY_BENCH_ENV = {
  SHOPIFY_API_KEY: 'bench-client-id',
  SHOPIFY_API_SECRET: `shpss_${randomBytes(16).toString('hex')}`,
  CONNECTOR_SECRET_KEY: randomBytes(32).toString('hex'),
};

/**
 * A carrier-service rate request as Shopify sends it at checkout (a Paris address, a two-line
 * cart), signed like Shopify signs it: X-Shopify-Hmac-Sha256 over the raw body with the app secret.
 */
function rateRequest(): string {
  const address = {
    country: 'FR',
    postal_code: '75011',
    province: null,
    city: 'Paris',
    name: 'Claire Martin',
    address1: '12 rue Oberkampf',
    address2: 'Bâtiment B',
    address3: null,
    phone: '+33 6 12 34 56 78',
    fax: null,
    email: 'claire.martin@example.com',
    address_type: null,
    company_name: null,
  };
  const item = (name: string, sku: string, quantity: number, grams: number, price: number) => ({
    name,
    sku,
    quantity,
    grams,
    price,
    vendor: 'Maison Thé',
    requires_shipping: true,
    taxable: true,
    fulfillment_service: 'manual',
    properties: null,
    product_id: 8_043_227_013_399,
    variant_id: 44_117_120_352_535,
  });
  return JSON.stringify({
    rate: {
      origin: {
        ...address,
        postal_code: '75001',
        name: 'Maison Thé',
        address1: '1 rue de Rivoli',
        address2: null,
      },
      destination: address,
      items: [
        item('Coffret thé vert', 'THE-VERT-01', 2, 450, 2490),
        item('Théière fonte 0,8 l', 'THEIERE-08', 1, 1200, 5900),
      ],
      currency: 'EUR',
      locale: 'fr',
    },
  });
}

/**
 * A shop linked to a brand of its own (the bench brand's orders must not gain Shopify sync jobs),
 * and the signed checkout request for the API at `base`.
 */
export async function shopifyRatesLoad(
  deps: Deps,
  pool: Pool,
  base: string,
  pickupAddress: string,
): Promise<LoadOptions> {
  const brand = await deps.brands.create({ name: 'Shopify bench shop', pickupAddress }, BENCH_OPERATOR);
  const shop = `bench-${randomBytes(3).toString('hex')}.myshopify.com`;
  const id = prefixedId('con');
  const key = Buffer.from(SHOPIFY_BENCH_ENV.CONNECTOR_SECRET_KEY, 'hex');
  await storesOn(pool).connections.insert({
    id,
    brandId: brand.id,
    platform: 'shopify',
    shop,
    credentials: await credentialCipher(async () => key).encrypt(
      `shpat_${randomBytes(16).toString('hex')}`,
      id,
    ),
    scopes: 'read_orders,write_merchant_managed_fulfillment_orders,write_shipping',
    remoteIds: {},
    at: new Date(),
  });
  const body = rateRequest();
  const load = {
    url: `${base}/connectors/shopify/rates`,
    method: 'POST' as const,
    headers: {
      'content-type': 'application/json',
      'x-shopify-shop-domain': shop,
      'x-shopify-hmac-sha256': createHmac('sha256', SHOPIFY_BENCH_ENV.SHOPIFY_API_SECRET)
        .update(body)
        .digest('base64'),
    },
    body,
  };
  // A bench of empty answers would measure nothing: the shop must get quotes.
  const answer = await fetch(load.url, { method: 'POST', headers: load.headers, body });
  const quotes = ((await answer.json()) as { rates?: unknown[] }).rates ?? [];
  if (answer.status !== 200 || quotes.length === 0)
    throw new Error(`the Shopify rate request got ${answer.status} with ${quotes.length} rates`);
  return load;
}
