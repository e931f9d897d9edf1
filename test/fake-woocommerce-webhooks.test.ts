import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey } from './support/fake-woocommerce/state.ts';
import { type FakeWooCommerce, startFakeWooCommerce } from './support/fake-woocommerce.ts';
import { type ReceivedWebhook, type Receiver, startReceiver } from './support/webhook-receiver.ts';
import { wcRequest } from './support/woocommerce-client.ts';

// The fake WooCommerce's webhooks and key provisioning, checked from a receiver: signatures are
// recomputed here, independently of the fake's code.

let fake: FakeWooCommerce;
let receiver: Receiver;
let answer: (hook: ReceivedWebhook) => number = () => 200;
let key: ApiKey;
const SHOP = 'boutique';

const wc = (
  path: string,
  init: { method?: string; body?: unknown; auth?: ApiKey | null; shop?: string } = {},
) =>
  wcRequest(fake.url(init.shop ?? SHOP), path, { ...init, auth: init.auth === undefined ? key : init.auth });

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
