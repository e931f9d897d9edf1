import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey } from './support/fake-woocommerce/state.ts';
import { type FakeWooCommerce, startFakeWooCommerce } from './support/fake-woocommerce.ts';
import { wcRequest } from './support/woocommerce-client.ts';

// The fake WooCommerce's own tests: its REST API as a bridge will rely on it, from the outside over HTTP.
// Webhooks and key provisioning: fake-woocommerce-webhooks.test.ts.

let fake: FakeWooCommerce;
let key: ApiKey;
const SHOP = 'boutique';

const wc = (
  path: string,
  init: { method?: string; body?: unknown; auth?: ApiKey | null; shop?: string } = {},
) =>
  wcRequest(fake.url(init.shop ?? SHOP), path, { ...init, auth: init.auth === undefined ? key : init.auth });

beforeAll(async () => {
  fake = await startFakeWooCommerce();
  fake.addShop(SHOP, { shipmentTracking: true });
  key = fake.createKey(SHOP);
});

afterAll(async () => {
  await fake.close();
});

describe('authentication', () => {
  it('serves a valid key (Basic or query string) and refuses the others with the documented codes', async () => {
    expect((await wc('/wc/v3/orders')).status).toBe(200);
    const query = await fetch(
      `${fake.url(SHOP)}/wp-json/wc/v3/orders?consumer_key=${key.consumerKey}&consumer_secret=${key.consumerSecret}`,
    );
    expect(query.status).toBe(200);

    const anonymous = await wc('/wc/v3/orders', { auth: null });
    expect(anonymous).toMatchObject({
      status: 401,
      json: {
        code: 'woocommerce_rest_cannot_view',
        message: 'Sorry, you cannot list resources.',
        data: { status: 401 },
      },
    });
    const wrongSecret = await wc('/wc/v3/orders', { auth: { ...key, consumerSecret: 'cs_nope' } });
    expect(wrongSecret.json).toMatchObject({
      code: 'woocommerce_rest_authentication_error',
      data: { status: 401 },
    });
    expect(wrongSecret.headers.get('www-authenticate')).toMatch(/^Basic realm="WooCommerce API/);

    const readOnly = fake.createKey(SHOP, 'read');
    const write = await wc('/wc/v3/webhooks', {
      method: 'POST',
      auth: readOnly,
      body: { topic: 'order.created' },
    });
    expect(write.json).toMatchObject({
      code: 'woocommerce_rest_authentication_error',
      message: 'The API key provided does not have write permissions.',
    });
    expect(fake.shop(SHOP).calls.some((c) => JSON.stringify(c).includes(key.consumerSecret))).toBe(false);
  });

  it('revoked keys are nobody (401) and a shop down answers 503 with Retry-After', async () => {
    fake.setMode(SHOP, 'unauthorized');
    expect((await wc('/wc/v3/orders/1', {})).json).toMatchObject({ code: 'woocommerce_rest_cannot_view' });
    fake.setMode(SHOP, 'down');
    const down = await wc('/wc/v3/orders');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('600');
    fake.setMode(SHOP, 'up');
    expect((await wc('/wc/v3/orders')).status).toBe(200);
  });
});

describe('orders', () => {
  const shop = 'pagination';
  let pageKey: ApiKey;
  beforeAll(() => {
    fake.addShop(shop);
    pageKey = fake.createKey(shop);
    for (let i = 0; i < 25; i++) fake.createOrder(shop, { createdAt: new Date(Date.UTC(2025, 2, 1, 8, i)) });
  });

  it('paginates with X-WP-Total, X-WP-TotalPages and Link, at most 100 a page', async () => {
    const page = await wc('/wc/v3/orders?per_page=10&page=2&order=asc&orderby=id', { auth: pageKey, shop });
    expect(page.status).toBe(200);
    expect(page.json).toHaveLength(10);
    expect(page.headers.get('x-wp-total')).toBe('25');
    expect(page.headers.get('x-wp-totalpages')).toBe('3');
    const links = page.headers.get('link')!;
    expect(links).toMatch(/<[^>]*page=1[^>]*>; rel="prev"/);
    expect(links).toMatch(/<[^>]*per_page=10[^>]*page=3[^>]*>; rel="next"/);
    const ids = page.json.map((o: any) => o.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    const last = await wc('/wc/v3/orders?per_page=10&page=3', { auth: pageKey, shop });
    expect(last.json).toHaveLength(5);
    expect(last.headers.get('link')).not.toContain('rel="next"');
    const tooMany = await wc('/wc/v3/orders?per_page=101', { auth: pageKey, shop });
    expect(tooMany).toMatchObject({
      status: 400,
      json: { code: 'rest_invalid_param', data: { params: { per_page: expect.stringContaining('100') } } },
    });
  });

  it('modified_after is strict, in the site timezone unless dates_are_gmt=true', async () => {
    const orders = fake.shop(shop).orders;
    const touched = fake.updateOrder(shop, orders[3]!.id, { status: 'on-hold' });
    const since = touched.date_modified as string; // Paris wall time of the change
    const sinceGmt = touched.date_modified_gmt as string;
    const oneSecondBefore = (iso: string) =>
      new Date(Date.parse(`${iso}Z`) - 1000).toISOString().slice(0, 19);

    const local = await wc(`/wc/v3/orders?modified_after=${oneSecondBefore(since)}`, { auth: pageKey, shop });
    expect(local.json.map((o: any) => o.id)).toEqual([orders[3]!.id]);
    const strict = await wc(`/wc/v3/orders?modified_after=${since}`, { auth: pageKey, shop });
    expect(strict.json).toEqual([]);
    const gmt = await wc(`/wc/v3/orders?dates_are_gmt=true&modified_after=${oneSecondBefore(sinceGmt)}`, {
      auth: pageKey,
      shop,
    });
    expect(gmt.json.map((o: any) => o.id)).toEqual([orders[3]!.id]);
    // A UTC time sent without dates_are_gmt is read as Paris time, one or two hours earlier: a
    // bound one second after the change still finds it; the same bound as GMT does not.
    const justAfterGmt = new Date(Date.parse(`${sinceGmt}Z`) + 1000).toISOString().slice(0, 19);
    const misread = await wc(`/wc/v3/orders?modified_after=${justAfterGmt}`, { auth: pageKey, shop });
    expect(misread.json.map((o: any) => o.id)).toEqual([orders[3]!.id]);
    const read = await wc(`/wc/v3/orders?dates_are_gmt=true&modified_after=${justAfterGmt}`, {
      auth: pageKey,
      shop,
    });
    expect(read.json).toEqual([]);
    const badDate = await wc('/wc/v3/orders?modified_after=yesterday', { auth: pageKey, shop });
    expect(badDate.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { params: { modified_after: 'Invalid date.' } },
    });
    const byStatus = await wc('/wc/v3/orders?status=on-hold', { auth: pageKey, shop });
    expect(byStatus.json.map((o: any) => o.status)).toEqual(['on-hold']);
  });

  it('carries a French shipping address and shipping line; weights come from the products', async () => {
    const { id } = fake.createOrder(SHOP, {
      shippingLine: { method_id: 'dlv_same_day', method_title: 'Livraison' },
    });
    const order = (await wc(`/wc/v3/orders/${id}`)).json;
    expect(order.shipping).toMatchObject({
      postcode: '75011',
      city: 'Paris',
      country: 'FR',
      address_1: '12 rue Oberkampf',
    });
    expect(order.billing.email).toBe('claire.martin@example.fr');
    expect(order.shipping_lines[0]).toMatchObject({ method_id: 'dlv_same_day', instance_id: '3' });
    expect(order.line_items[0]).not.toHaveProperty('weight');
    const product = (await wc(`/wc/v3/products/${order.line_items[0].product_id}`)).json;
    expect(product.weight).toBe('0.45');
    expect((await wc('/wc/v3/settings/products/woocommerce_weight_unit')).json.value).toBe('kg');
    fake.addShop('grammes', { weightUnit: 'g' });
    const gKey = fake.createKey('grammes');
    const gProduct = (
      await wc(`/wc/v3/products/${fake.shop('grammes').products[0]!.id}`, { auth: gKey, shop: 'grammes' })
    ).json;
    expect(gProduct.weight).toBe('450');
    expect((await wc('/wc/v3/orders/999999')).json).toMatchObject({
      code: 'woocommerce_rest_shop_order_invalid_id',
    });
  });

  it('completes an order with PUT and takes customer notes', async () => {
    const { id } = fake.createOrder(SHOP);
    const done = await wc(`/wc/v3/orders/${id}`, { method: 'PUT', body: { status: 'completed' } });
    expect(done.json).toMatchObject({ status: 'completed', date_completed: expect.any(String) });
    const bad = await wc(`/wc/v3/orders/${id}`, { method: 'PUT', body: { status: 'shipped' } });
    expect(bad.json).toMatchObject({ code: 'rest_invalid_param' });
    const note = await wc(`/wc/v3/orders/${id}/notes`, {
      method: 'POST',
      body: { note: 'Livré à 14 h 02 — suivi : https://suivi.example/ABC', customer_note: true },
    });
    expect(note).toMatchObject({ status: 201, json: { customer_note: true, author: 'system' } });
    expect(note.text).toContain('https:\\/\\/suivi.example\\/ABC'); // PHP's json_encode
    expect((await wc(`/wc/v3/orders/${id}/notes`, { method: 'POST', body: {} })).json).toMatchObject({
      code: 'rest_missing_callback_param',
    });
    expect((await wc(`/wc/v3/orders/${id}/notes?type=customer`)).json).toHaveLength(1);
  });

  it('takes shipment trackings only where the extension runs', async () => {
    const { id } = fake.createOrder(SHOP);
    const created = await wc(`/wc-shipment-tracking/v3/orders/${id}/shipment-trackings`, {
      method: 'POST',
      body: {
        custom_tracking_provider: 'Delivery Orders',
        custom_tracking_link: 'https://suivi.example/t/%1$s',
        tracking_number: 'DLV-42',
      },
    });
    expect(created).toMatchObject({
      status: 201,
      json: {
        tracking_provider: 'Delivery Orders',
        tracking_link: 'https://suivi.example/t/DLV-42',
        tracking_number: 'DLV-42',
      },
    });
    const other = fake.shop('pagination');
    const missing = await wc(`/wc-shipment-tracking/v3/orders/${other.orders[0]!.id}/shipment-trackings`, {
      method: 'POST',
      auth: other.keys[0]!,
      shop: 'pagination',
      body: { tracking_number: 'X' },
    });
    expect(missing).toMatchObject({ status: 404, json: { code: 'rest_no_route' } });
  });
});
