import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey } from './support/fake-woocommerce/state.ts';
import { type FakeWooCommerce, startFakeWooCommerce } from './support/fake-woocommerce.ts';
import { type ReceivedWebhook, type Receiver, startReceiver } from './support/webhook-receiver.ts';

// The fake WooCommerce's own tests: what a bridge will rely on, checked from the outside over HTTP,
// signatures recomputed here independently of the fake's code.

let fake: FakeWooCommerce;
let receiver: Receiver;
let answer: (hook: ReceivedWebhook) => number = () => 200;
let key: ApiKey;
const SHOP = 'boutique';

async function wc(
  path: string,
  init: { method?: string; body?: unknown; auth?: ApiKey | null; shop?: string } = {},
) {
  const auth = init.auth === undefined ? key : init.auth;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth)
    headers.authorization = `Basic ${Buffer.from(`${auth.consumerKey}:${auth.consumerSecret}`).toString('base64')}`;
  const response = await fetch(`${fake.url(init.shop ?? SHOP)}/wp-json${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON (maintenance page)
  }
  return { status: response.status, headers: response.headers, text, json };
}

const signatureOf = (secret: string, raw: string) =>
  createHmac('sha256', secret).update(raw, 'utf8').digest('base64');

beforeAll(async () => {
  receiver = await startReceiver((hook) => ({ status: answer(hook) }));
  fake = await startFakeWooCommerce({ insecureCallbacks: true, deliveryTimeoutMs: 2_000 });
  fake.addShop(SHOP, { shipmentTracking: true });
  key = fake.createKey(SHOP);
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
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

describe('webhooks', () => {
  async function subscribe(topic: string, path: string, secret = 'le-secret-du-webhook') {
    const created = await wc('/wc/v3/webhooks', {
      method: 'POST',
      body: { name: topic, topic, delivery_url: receiver.url(path), secret },
    });
    expect(created.status).toBe(201);
    return created.json;
  }

  it('pings on creation, then delivers signed order payloads with every X-WC-Webhook header', async () => {
    const before = receiver.received.length;
    const hook = await subscribe('order.created', '/woo/created');
    const ping = receiver.received[before]!;
    expect(ping.body).toBe(`webhook_id=${hook.id}`);
    expect(ping.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(hook).not.toHaveProperty('secret');

    const { id } = fake.createOrder(SHOP);
    await fake.flushWebhooks(SHOP);
    const sent = receiver.received.filter((h) => h.path === '/woo/created').at(-1)!;
    expect(sent.headers).toMatchObject({
      'x-wc-webhook-source': `${fake.url(SHOP)}/`,
      'x-wc-webhook-topic': 'order.created',
      'x-wc-webhook-resource': 'order',
      'x-wc-webhook-event': 'created',
      'x-wc-webhook-id': String(hook.id),
      'x-wc-webhook-delivery-id': expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(sent.headers['x-wc-webhook-signature']).toBe(signatureOf('le-secret-du-webhook', sent.body));
    expect(sent.body).toBe(fake.orderJson(SHOP, id));
    expect(JSON.parse(sent.body)).toMatchObject({
      id,
      status: 'processing',
      shipping: { postcode: '75011' },
    });
    // The signature covers PHP's bytes ("\/", "\u00e9"): re-serialising the parsed JSON breaks it.
    expect(sent.body).toContain('\\u00e9');
    expect(signatureOf('le-secret-du-webhook', JSON.stringify(JSON.parse(sent.body)))).not.toBe(
      sent.headers['x-wc-webhook-signature'],
    );
  });

  it('absorbs updates queued before the queue runs: one delivery, with the order as it is then', async () => {
    await subscribe('order.updated', '/woo/updated');
    const { id } = fake.createOrder(SHOP);
    fake.updateOrder(SHOP, id, { status: 'on-hold' });
    fake.updateOrder(SHOP, id, { status: 'cancelled' });
    const logs = await fake.flushWebhooks(SHOP);
    const updates = logs.filter((l) => l.headers['X-WC-Webhook-Topic'] === 'order.updated');
    expect(updates).toHaveLength(1);
    expect(JSON.parse(updates[0]!.body).status).toBe('cancelled');
  });

  it('disables a webhook whose deliveries keep failing (failure_count above 5), and a success resets the count', async () => {
    const shop = 'flaky';
    fake.addShop(shop);
    const flakyKey = fake.createKey(shop);
    const created = await wc('/wc/v3/webhooks', {
      method: 'POST',
      auth: flakyKey,
      shop,
      body: { topic: 'order.created', delivery_url: receiver.url('/flaky'), secret: 's' },
    });
    const webhook = fake.shop(shop).webhooks.find((w) => w.id === created.json.id)!;
    answer = (hook) => (hook.path === '/flaky' ? 500 : 200);
    try {
      fake.createOrder(shop);
      await fake.flushWebhooks(shop);
      answer = () => 200;
      fake.createOrder(shop);
      await fake.flushWebhooks(shop);
      expect(webhook.failureCount).toBe(0);
      answer = (hook) => (hook.path === '/flaky' ? 503 : 200);
      for (let i = 1; i <= 6; i++) {
        fake.createOrder(shop);
        await fake.flushWebhooks(shop);
        expect({ i, status: webhook.status, count: webhook.failureCount }).toEqual({
          i,
          status: 'active',
          count: i,
        });
      }
      fake.createOrder(shop);
      await fake.flushWebhooks(shop);
      expect(webhook.status).toBe('disabled');
      const attempts = receiver.received.filter((h) => h.path === '/flaky').length;
      fake.createOrder(shop);
      expect(await fake.flushWebhooks(shop)).toEqual([]);
      expect(receiver.received.filter((h) => h.path === '/flaky')).toHaveLength(attempts);
      const listed = await wc('/wc/v3/webhooks?status=disabled', { auth: flakyKey, shop });
      expect(listed.json.map((w: any) => w.id)).toEqual([webhook.id]);
      const reactivated = await wc(`/wc/v3/webhooks/${webhook.id}`, {
        method: 'PUT',
        auth: flakyKey,
        shop,
        body: { status: 'active' },
      });
      expect(reactivated.json.status).toBe('active');
    } finally {
      answer = () => 200;
    }
  });

  it('deletes only with force=true', async () => {
    const hook = await subscribe('order.created', '/woo/deleted');
    expect((await wc(`/wc/v3/webhooks/${hook.id}`, { method: 'DELETE' })).json).toMatchObject({
      code: 'woocommerce_rest_trash_not_supported',
      data: { status: 501 },
    });
    expect((await wc(`/wc/v3/webhooks/${hook.id}?force=true`, { method: 'DELETE' })).status).toBe(200);
    expect((await wc(`/wc/v3/webhooks/${hook.id}`)).status).toBe(400);
    const invalid = await wc('/wc/v3/webhooks', {
      method: 'POST',
      body: { topic: 'order.paid', delivery_url: 'x' },
    });
    expect(invalid.json).toMatchObject({ code: 'woocommerce_rest_webhook_invalid_topic' });
  });
});

describe('key provisioning (/wc-auth/v1/authorize)', () => {
  const authorizeUrl = (callback: string, shop = SHOP, base = fake.url(shop)) =>
    `${base}/wc-auth/v1/authorize?${new URLSearchParams({
      app_name: 'Delivery Orders',
      scope: 'read_write',
      user_id: 'conn_123',
      return_url: 'https://app.example/connectors/woocommerce/return?x=1',
      callback_url: callback,
    })}`;

  it('posts the key pair to callback_url, redirects to return_url, and the keys then work', async () => {
    const page = await fetch(authorizeUrl(receiver.url('/wc-auth/callback')));
    expect(page.status).toBe(200);
    const approve = /href="([^"]+)">Approve/.exec(await page.text())![1]!.replaceAll('&amp;', '&');
    const before = receiver.received.length;
    const granted = await fetch(approve, { redirect: 'manual' });
    expect(granted.status).toBe(302);
    const back = new URL(granted.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://app.example/connectors/woocommerce/return');
    expect(Object.fromEntries(back.searchParams)).toEqual({ x: '1', success: '1', user_id: 'conn_123' });
    const callback = receiver.received[before]!;
    expect(callback.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(callback.json).toEqual({
      key_id: expect.any(Number),
      user_id: 'conn_123',
      consumer_key: expect.stringMatching(/^ck_[0-9a-f]{40}$/),
      consumer_secret: expect.stringMatching(/^cs_[0-9a-f]{40}$/),
      key_permissions: 'read_write',
    });
    const provisioned = {
      ...key,
      consumerKey: callback.json.consumer_key,
      consumerSecret: callback.json.consumer_secret,
    };
    expect((await wc('/wc/v3/orders', { auth: provisioned })).status).toBe(200);
    expect((await fetch(approve)).status).toBe(401); // the nonce is single use
  });

  it('deletes the key when the callback does not answer 200, and denies with success=0', async () => {
    const keys = fake.shop(SHOP).keys.length;
    answer = (hook) => (hook.path === '/wc-auth/refuse' ? 500 : 200);
    try {
      await expect(fake.approve(authorizeUrl(receiver.url('/wc-auth/refuse')))).rejects.toThrow(
        /unable to send/,
      );
    } finally {
      answer = () => 200;
    }
    expect(fake.shop(SHOP).keys).toHaveLength(keys);
    expect(new URL(fake.deny(authorizeUrl(receiver.url('/x')))).searchParams.get('success')).toBe('0');
  });

  it('requires an https callback_url unless the fake is told otherwise', async () => {
    const strict = await startFakeWooCommerce();
    try {
      strict.addShop('s');
      const refused = await fetch(authorizeUrl(receiver.url('/cb'), 's', strict.url('s')));
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain('The callback_url needs to be over SSL');
    } finally {
      await strict.close();
    }
  });
});
