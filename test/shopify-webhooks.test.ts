import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storesOn } from '../src/db/stores.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import type { ScratchTestApp } from './support/scratch-database.ts';
import {
  linkShop,
  newShop,
  paidOrderPayload,
  sendWebhook,
  signBody,
  startShopifyShop,
} from './support/shopify.ts';

/** The webhook receiver (signature, dedupe, one statement with its job) and what processing does. */
// Own database: the jobs enqueued here are for a worker with the Shopify connector on.
let t: ScratchTestApp;
let brand: TestBrand;
let shop: string;

beforeAll(async () => {
  ({ t, brand, shop } = await startShopifyShop());
});
afterAll(async () => {
  await t?.close();
});

async function inboxRows(deliveryId: string) {
  const { rows } = await t.pool.query(
    `SELECT i.id, i.payload, i.outcome,
            (SELECT count(*)::int FROM ${QUEUED_JOBS} j
              WHERE j.task = 'shopify_process_webhook' AND j.payload->>'inbox_id' = i.id::text) AS jobs
       FROM connector_inbox i WHERE delivery_id = $1`,
    [deliveryId],
  );
  return rows as { id: number; payload: string | null; outcome: string | null; jobs: number }[];
}

/** Receives and processes a webhook as the worker would; returns the processing outcome. */
async function deliver(topic: string, body: string, options: { shop?: string; webhookId?: string } = {}) {
  const webhookId = options.webhookId ?? `wh-${Math.random().toString(36).slice(2)}`;
  const res = await sendWebhook(t.app, { shop: options.shop ?? shop, topic, body, webhookId });
  expect(res.statusCode, res.body).toBe(200);
  const [row] = await inboxRows(webhookId);
  return t.deps.shopify!.inbox.process(row!.id);
}

async function ordersOf(gid: string) {
  const { rows } = await t.pool.query(
    `SELECT o.* FROM connector_orders c JOIN orders o ON o.id = c.order_id WHERE c.external_id = $1`,
    [gid],
  );
  return rows;
}

async function problemsOf(gid: string) {
  const { rows } = await t.pool.query(
    'SELECT kind, message, details FROM connector_problems WHERE external_id = $1',
    [gid],
  );
  return rows as { kind: string; message: string; details: Record<string, string> }[];
}

describe('webhook signature', () => {
  const order = paidOrderPayload();

  it('stores a signed webhook and enqueues its job in the same statement', async () => {
    const res = await sendWebhook(t.app, {
      shop,
      topic: 'orders/paid',
      body: order.text,
      webhookId: 'sig-good',
    });
    expect(res.statusCode).toBe(200);
    const rows = await inboxRows('sig-good');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toBe(order.text);
    expect(rows[0]!.jobs).toBe(1);
  });

  it.each([
    ['a wrong secret', signBody(order.text, 'not-the-secret')],
    ['another body', signBody(`${order.text} `)],
    ['garbage', 'not base64 at all'],
    ['an empty header', ''],
    ['no header', null],
  ])('answers 401 and stores nothing for %s', async (_label, hmac) => {
    const webhookId = `sig-bad-${Math.random()}`;
    const res = await sendWebhook(t.app, { shop, topic: 'orders/paid', body: order.text, webhookId, hmac });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('unauthorized');
    expect(await inboxRows(webhookId)).toHaveLength(0);
  });

  it('refuses a signed webhook without a shop domain or webhook id', async () => {
    const res = await sendWebhook(t.app, {
      shop: 'evil.example.com',
      topic: 'orders/paid',
      body: order.text,
    });
    expect(res.statusCode).toBe(400);
    const missingId = await t.app.inject({
      method: 'POST',
      url: '/connectors/shopify/webhooks',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/paid',
        'x-shopify-shop-domain': shop,
        'x-shopify-hmac-sha256': signBody(order.text),
      },
      payload: order.text,
    });
    expect(missingId.statusCode).toBe(400);
  });

  it('answers 200 to a redelivery (same X-Shopify-Webhook-Id) and stores it once', async () => {
    const first = await sendWebhook(t.app, {
      shop,
      topic: 'orders/paid',
      body: order.text,
      webhookId: 'dup-1',
    });
    const again = await sendWebhook(t.app, {
      shop,
      topic: 'orders/paid',
      body: order.text,
      webhookId: 'dup-1',
    });
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json()).toEqual({ ok: true, duplicate: true });
    const rows = await inboxRows('dup-1');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.jobs).toBe(1);
  });
});

describe('orders/paid', () => {
  it('creates one delivery order mapped from the Shopify order, keeping its id exact', async () => {
    const order = paidOrderPayload();
    expect(Number(order.id) > Number.MAX_SAFE_INTEGER).toBe(true);
    expect(await deliver('orders/paid', order.text)).toMatch(/^created DLV-/);
    const [created, ...others] = await ordersOf(order.gid);
    expect(others).toHaveLength(0);
    expect(created).toMatchObject({
      brand_id: brand.brandId,
      customer_email: 'jeanne@example.fr',
      reference: order.name,
      delivery_postcode: '75011',
      delivery_recipient: 'Jeanne Martin',
      delivery_phone: '+33612345678',
      service: 'standard',
      status: 'pending',
      // The shipping address's coordinates, as Shopify geocoded them: the brand's point (SPEC §11).
      delivery_lat: 48.858828,
      delivery_lng: 2.379506,
      delivery_location_precision: 'rooftop',
      delivery_location_source: 'brand',
    });
    expect(Number(created.amount_cents)).toBe(4250);
  });

  it('leaves out coordinates the API would refuse (outside Île-de-France): the address is placed as any other', async () => {
    const order = paidOrderPayload();
    const text = order.text.replace(
      '"latitude":48.858828,"longitude":2.379506',
      '"latitude":45.764043,"longitude":4.835659',
    );
    expect(text).not.toBe(order.text);
    expect(await deliver('orders/paid', text)).toMatch(/^created DLV-/);
    const [created] = await ordersOf(order.gid);
    expect(created).toMatchObject({
      delivery_location_source: 'postcode',
      delivery_location_precision: 'postcode',
    });
  });

  it('never makes a second order for the same Shopify order, in turn or concurrently', async () => {
    const order = paidOrderPayload();
    await deliver('orders/paid', order.text);
    expect(await deliver('orders/paid', order.text)).toMatch(/^duplicate/);
    const twin = paidOrderPayload();
    const ids: number[] = [];
    for (const webhookId of ['c-1', 'c-2', 'c-3'].map((w) => `${w}-${twin.id}`)) {
      await sendWebhook(t.app, { shop, topic: 'orders/paid', body: twin.text, webhookId });
      ids.push((await inboxRows(webhookId))[0]!.id);
    }
    const outcomes = await Promise.all(ids.map((id) => t.deps.shopify!.inbox.process(id)));
    expect(outcomes.filter((o) => o.startsWith('created'))).toHaveLength(1);
    expect(await ordersOf(order.gid)).toHaveLength(1);
    expect(await ordersOf(twin.gid)).toHaveLength(1);
  });

  it('records a sync problem, not an order, for an address out of zone', async () => {
    const order = paidOrderPayload({ zip: '13001' });
    expect(await deliver('orders/paid', order.text)).toMatch(/^problem out_of_zone/);
    expect(await ordersOf(order.gid)).toHaveLength(0);
    // The English sentence for the CLI; what the account area words in the brand's language.
    expect(await problemsOf(order.gid)).toEqual([
      {
        kind: 'out_of_zone',
        message: expect.stringContaining('13001'),
        details: { code: 'invalid_field', field: 'delivery_address', problem: 'must be in Île-de-France' },
      },
    ]);
    // Shopify retrying it records nothing more.
    await deliver('orders/paid', order.text);
    expect(await problemsOf(order.gid)).toHaveLength(1);
  });

  it('records a problem for a shipping address outside France', async () => {
    const order = paidOrderPayload({ country: 'DE', zip: '75011' });
    await deliver('orders/paid', order.text);
    expect(await ordersOf(order.gid)).toHaveLength(0);
    expect((await problemsOf(order.gid))[0]).toMatchObject({
      kind: 'out_of_zone',
      details: { code: 'outside_france', country: 'DE' },
    });
  });

  it('takes only the rates of our carrier service: a shop’s own rate or another carrier’s named like ours never counts', async () => {
    // Shopify's shapes: a merchant rate has source "shopify" and no carrier_identifier, its code
    // the rate's name; a carrier-calculated rate has its carrier service's name and identifier.
    const merchant = (name: string) => ({
      code: name,
      title: name,
      source: 'shopify',
      carrier_identifier: null,
    });
    const carrier = (source: string, code: string) => ({
      code,
      title: `${source} — ${code}`,
      source,
      carrier_identifier: '9a0e7a5d31c4b2f8e6d1c0b9a8f7e6d5',
    });
    for (const line of [
      merchant('Standard'),
      merchant('standard'),
      merchant('Express'),
      merchant('Livraison'),
      merchant('Livraison DLV'),
      { ...merchant('Standard'), source: 'Livraison DLV' },
      carrier('Colissimo', 'standard'),
      carrier('ups_shipping', 'express'),
      carrier('Livraison DLV', 'Livraison'),
    ]) {
      const order = paidOrderPayload({ shippingLine: line });
      expect(await deliver('orders/paid', order.text), JSON.stringify(line)).toMatch(/^skipped/);
      expect(await ordersOf(order.gid)).toHaveLength(0);
    }
    for (const code of ['express', 'standard', 'economy']) {
      const order = paidOrderPayload({ shippingLine: carrier('Livraison DLV', code) });
      expect(await deliver('orders/paid', order.text)).toMatch(/^created DLV-/);
      expect((await ordersOf(order.gid))[0]).toMatchObject({ service: code });
    }
  });

  it('knows our rates by the carrier service name registered on the shop, though CARRIER_NAME changed since', async () => {
    const other = await createBrandWithKey(t.deps);
    const connection = await linkShop(t.deps, other.brandId);
    await storesOn(t.pool).connections.setRemoteIds(
      connection.id,
      {
        webhookSubscriptions: [],
        carrierService: 'gid://shopify/DeliveryCarrierService/1',
        carrierServiceName: 'Coursiers Paris',
      },
      new Date(),
    );
    t.deps.connectorDirectory.forget();
    const line = (source: string) => ({
      code: 'express',
      source,
      carrier_identifier: 'd41d8cd98f00b204e9800998ecf8427e',
    });
    const registered = paidOrderPayload({ shippingLine: line('Coursiers Paris') });
    expect(await deliver('orders/paid', registered.text, { shop: connection.shop })).toMatch(/^created DLV-/);
    const current = paidOrderPayload({ shippingLine: line('Livraison DLV') });
    expect(await deliver('orders/paid', current.text, { shop: connection.shop })).toMatch(/^skipped/);
  });

  it('skips an order shipped otherwise, unless the brand takes all orders', async () => {
    const order = paidOrderPayload({
      shippingLine: { code: 'ups-ground', source: 'ups_shipping', carrier_identifier: 'b7e1c0d2a3f4' },
    });
    expect(await deliver('orders/paid', order.text)).toMatch(/^skipped/);
    expect(await ordersOf(order.gid)).toHaveLength(0);
    expect(await problemsOf(order.gid)).toHaveLength(0);

    const other = await createBrandWithKey(t.deps);
    const connection = await linkShop(t.deps, other.brandId);
    await t.deps.connections.updateSettings(other.brandId, connection.id, { orderFilter: 'all' });
    const all = paidOrderPayload({
      shippingLine: { code: 'ups-ground', source: 'ups_shipping', carrier_identifier: 'b7e1c0d2a3f4' },
    });
    expect(await deliver('orders/paid', all.text, { shop: connection.shop })).toMatch(/^created/);
    expect((await ordersOf(all.gid))[0]).toMatchObject({ brand_id: other.brandId, service: 'standard' });
    // Taking every order, the shop's own rate named "Express" still does not choose our express.
    const express = paidOrderPayload({
      shippingLine: { code: 'Express', title: 'Express', source: 'shopify', carrier_identifier: null },
    });
    expect(await deliver('orders/paid', express.text, { shop: connection.shop })).toMatch(/^created/);
    expect((await ordersOf(express.gid))[0]).toMatchObject({ service: 'standard' });
  });

  it('creates the delivery order of a paid order arriving while the link is broken, and says its tracking is not sent', async () => {
    const other = await createBrandWithKey(t.deps);
    const connection = await linkShop(t.deps, other.brandId);
    await t.deps.connections.markBroken(connection.id, 'Shopify refused the access token (401)');
    const order = paidOrderPayload();
    expect(await deliver('orders/paid', order.text, { shop: connection.shop })).toMatch(/^created DLV-/);
    const [created] = await ordersOf(order.gid);
    expect(created).toMatchObject({ brand_id: other.brandId, status: 'pending' });
    expect(await problemsOf(order.gid)).toEqual([
      {
        kind: 'sync_failed',
        message: expect.stringContaining(`${created.tracking_ref} was created`),
        details: { code: 'tracking_link_broken', tracking_ref: created.tracking_ref },
      },
    ]);
    // Shopify's retry makes nothing more; its cancellation needs no call to Shopify either.
    expect(await deliver('orders/paid', order.text, { shop: connection.shop })).toMatch(/^duplicate/);
    expect(await deliver('orders/cancelled', order.text, { shop: connection.shop })).toMatch(/^cancelled/);
    // A disconnected link takes nothing.
    await t.deps.connections.disconnect(other.brandId, connection.id);
    const late = paidOrderPayload();
    expect(await deliver('orders/paid', late.text, { shop: connection.shop })).toBe(
      'ignored: link disconnected',
    );
  });

  it('ignores the orders of a shop nobody linked', async () => {
    const order = paidOrderPayload();
    expect(await deliver('orders/paid', order.text, { shop: newShop() })).toBe('ignored: shop never linked');
    expect(await ordersOf(order.gid)).toHaveLength(0);
  });
});

describe('orders/cancelled, app/uninstalled and privacy', () => {
  it('cancels the delivery order while it can, else records why not', async () => {
    const order = paidOrderPayload();
    await deliver('orders/paid', order.text);
    expect(await deliver('orders/cancelled', order.text)).toMatch(/^cancelled DLV-/);
    expect((await ordersOf(order.gid))[0].status).toBe('cancelled');

    const picked = paidOrderPayload();
    await deliver('orders/paid', picked.text);
    await t.deps.orders.setStatus(
      (await ordersOf(picked.gid))[0].tracking_ref,
      'picked_up',
      null,
      testOperator,
    );
    expect(await deliver('orders/cancelled', picked.text)).toMatch(/^problem not_cancellable/);
    const { status, tracking_ref } = (await ordersOf(picked.gid))[0];
    expect(status).toBe('picked_up');
    expect((await problemsOf(picked.gid))[0]?.details).toEqual({ code: 'cancelled_too_late', tracking_ref });
  });

  it('disconnects on app/uninstalled and erases the token', async () => {
    const other = await createBrandWithKey(t.deps);
    const connection = await linkShop(t.deps, other.brandId);
    await deliver('app/uninstalled', JSON.stringify({ id: 548380009, domain: connection.shop }), {
      shop: connection.shop,
    });
    const { rows } = await t.pool.query(
      'SELECT status, credentials FROM connector_connections WHERE id = $1',
      [connection.id],
    );
    expect(rows[0]).toEqual({ status: 'disconnected', credentials: null });
    // Its orders are no longer taken.
    const order = paidOrderPayload();
    expect(await deliver('orders/paid', order.text, { shop: connection.shop })).toMatch(/^ignored/);
  });

  it('erases a customer’s payloads and problems on customers/redact, and a shop’s on shop/redact', async () => {
    const other = await createBrandWithKey(t.deps);
    const { shop: redacted } = await linkShop(t.deps, other.brandId);
    const kept = paidOrderPayload();
    const erased = paidOrderPayload({ zip: '13001' });
    await deliver('orders/paid', kept.text, { shop: redacted, webhookId: `keep-${kept.id}` });
    await deliver('orders/paid', erased.text, { shop: redacted, webhookId: `erase-${erased.id}` });
    expect(await problemsOf(erased.gid)).toHaveLength(1);
    const customerRedact = `{"shop_id":954889,"shop_domain":"${redacted}","customer":{"id":191167,"email":"jeanne@example.fr","phone":"555-625-1199"},"orders_to_redact":[${erased.id}]}`;
    await deliver('customers/redact', customerRedact, { shop: redacted, webhookId: `cr-${erased.id}` });
    expect((await inboxRows(`erase-${erased.id}`))[0]!.payload).toBeNull();
    expect((await inboxRows(`cr-${erased.id}`))[0]!.payload).toBeNull();
    expect((await inboxRows(`keep-${kept.id}`))[0]!.payload).toBe(kept.text);
    expect(await problemsOf(erased.gid)).toHaveLength(0);

    await deliver('shop/redact', `{"shop_id":954889,"shop_domain":"${redacted}"}`, {
      shop: redacted,
      webhookId: `sr-${kept.id}`,
    });
    expect((await inboxRows(`keep-${kept.id}`))[0]!.payload).toBeNull();
    expect(await ordersOf(kept.gid)).toHaveLength(0); // the link, not the delivery order
  });

  it('records a customer’s data request for the operator', async () => {
    const order = paidOrderPayload();
    const body = `{"shop_id":954889,"shop_domain":"${shop}","customer":{"id":191167,"email":"jeanne@example.fr"},"orders_requested":[${order.id}],"data_request":{"id":9999}}`;
    await deliver('customers/data_request', body);
    const problems = await t.deps.connections.problems({ brandId: brand.brandId });
    const request = problems.find((p) => p.kind === 'data_request');
    expect(request?.message).toContain(order.gid);
  });
});

describe('the shopify outbox subscriber', () => {
  async function syncJobs(trackingRef: string) {
    const { rows } = await t.pool.query(
      `SELECT count(*)::int AS n FROM ${QUEUED_JOBS} j
         JOIN outbox_events e ON e.id = j.payload->>'event_id'
        WHERE j.task = 'shopify_sync_order' AND e.data->'order'->>'tracking_ref' = $1`,
      [trackingRef],
    );
    return rows[0].n as number;
  }

  it('gets a job for the moves of orders of brands with an active link, and leaves orders not from Shopify alone', async () => {
    const order = paidOrderPayload();
    const created = await deliver('orders/paid', order.text);
    const ref = created.replace('created ', '');
    // Nothing for Shopify until the parcel is picked up (the fulfillment waits for it).
    expect(await syncJobs(ref)).toBe(0);
    await t.deps.orders.setStatus(ref, 'picked_up', null, testOperator);
    expect(await syncJobs(ref)).toBe(1);
    const direct = await createOrder(t.app, brand);
    expect(direct.statusCode).toBe(200);
    await t.deps.orders.setStatus(direct.data.trackingRef, 'picked_up', null, testOperator);
    const { rows } = await t.pool.query(
      "SELECT id FROM outbox_events WHERE data->'order'->>'tracking_ref' = $1",
      [direct.data.trackingRef],
    );
    expect(await t.deps.shopify!.tracking.handle(rows[0].id)).toBe('not a shop order');

    const unlinked = await createBrandWithKey(t.deps);
    const other = await createOrder(t.app, unlinked);
    expect(await syncJobs(other.data.trackingRef)).toBe(0);
  });
});
