import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { linkShop, newShop, shopifyConfig, signBody } from './support/shopify.ts';

/** The carrier-service callback: signed by Shopify, the same quotes as POST /rates, Shopify's shape. */
let t: TestApp;
let brand: TestBrand;
let shop: string;

beforeAll(async () => {
  // A fixed Tuesday morning: both quotes fall in the same minute and before every cut-off.
  t = await buildTestApp({ config: shopifyConfig(), clock: () => new Date('2026-11-24T08:00:00Z') });
  brand = await createBrandWithKey(t.deps);
  shop = (await linkShop(t.deps, brand.brandId)).shop;
});
afterAll(() => t.close());

/** Shopify's documented rate request, to a Paris address, two items of 700 g. */
function rateRequest(destination: Record<string, unknown> = {}) {
  return JSON.stringify({
    rate: {
      origin: {
        country: 'FR',
        postal_code: '75001',
        province: null,
        city: 'Paris',
        name: null,
        address1: '1 rue de Rivoli',
      },
      destination: {
        country: 'FR',
        postal_code: '75011',
        province: null,
        city: 'Paris',
        name: 'Jeanne Martin',
        address1: '12 rue Oberkampf',
        address2: '',
        address3: null,
        phone: '0612345678',
        fax: null,
        email: null,
        address_type: null,
        company_name: null,
        ...destination,
      },
      items: [
        {
          name: 'Tasse',
          sku: 'T-1',
          quantity: 2,
          grams: 700,
          price: 1290,
          vendor: 'Acme',
          requires_shipping: true,
          taxable: true,
          fulfillment_service: 'manual',
          properties: null,
          product_id: 8_000_000_000_000_001,
          variant_id: 9_000_000_000_000_001,
        },
      ],
      currency: 'EUR',
      locale: 'fr',
    },
  });
}

function askRates(body: string, options: { shop?: string; hmac?: string | null } = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-shopify-shop-domain': options.shop ?? shop,
  };
  const hmac = options.hmac === undefined ? signBody(body) : options.hmac;
  if (hmac !== null) headers['x-shopify-hmac-sha256'] = hmac;
  return call(t.app, { method: 'POST', url: '/connectors/shopify/rates', headers, payload: body });
}

describe('carrier-service rates', () => {
  it('answers the same quotes as POST /rates, in Shopify’s shape (cents as strings)', async () => {
    const res = await askRates(rateRequest());
    expect(res.statusCode).toBe(200);
    const api = await call(t.app, {
      method: 'POST',
      url: `${API}/rates`,
      headers: brand.headers,
      payload: { delivery_zip: '75011', unit_type: 'parcel', quantity: 1, unit_weight: '1400g' },
    });
    expect(api.data.rates.length).toBeGreaterThan(0);
    expect(res.data).toEqual({
      rates: api.data.rates.map((rate: Record<string, any>) => ({
        service_name: `Livraison DLV — ${rate.name}`,
        service_code: rate.service,
        total_price: String(Math.round(rate.price_eur * 100)),
        currency: 'EUR',
        description: rate.name,
        min_delivery_date: `${rate.promised_date} 12:00:00 +0000`,
        max_delivery_date: `${rate.promised_date} 12:00:00 +0000`,
      })),
    });
    for (const rate of res.data.rates) expect(rate.total_price).toMatch(/^\d+$/);
  });

  it.each([
    ['out of zone', { postal_code: '13001', city: 'Marseille' }],
    ['outside France', { country: 'BE', postal_code: '1000' }],
    ['without a postcode', { postal_code: null }],
    ['an unknown postcode', { postal_code: '00000' }],
  ])('answers {rates: []} %s', async (_label, destination) => {
    const res = await askRates(rateRequest(destination));
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ rates: [] });
  });

  it('answers {rates: []} to a shop that is not linked', async () => {
    const res = await askRates(rateRequest(), { shop: newShop() });
    expect(res.data).toEqual({ rates: [] });
  });

  it.each([
    ['no signature', null],
    ['a wrong signature', signBody('{}')],
  ])('answers 401 with %s', async (_label, hmac) => {
    const res = await askRates(rateRequest(), { hmac });
    expect(res.statusCode).toBe(401);
  });

  it('answers quickly (the shop → brand lookup and the quotes are cached)', async () => {
    const body = rateRequest();
    await askRates(body);
    const started = performance.now();
    for (let i = 0; i < 50; i++) expect((await askRates(body)).statusCode).toBe(200);
    expect((performance.now() - started) / 50).toBeLessThan(20);
  });
});
