import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../src/connectors/connection.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import type { TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { CONNECTOR_KEY } from './support/shopify.ts';
import { eventually, OUR_SHIPPING, startWooBridge, type WooBridge } from './support/woocommerce.ts';

/**
 * The WooCommerce bridge end to end: the real service (HTTP + worker + PostgreSQL) and a fake
 * WooCommerce on loopback. Connect by the one-click key provisioning, an order paid in the shop
 * becomes exactly one delivery order, its statuses go back to the shop as the operator moves it,
 * and cancelling it in the shop cancels the delivery.
 */
let w: WooBridge;
let brand: TestBrand;
let connection: Connection;
const SLUG = 'boutique-claire';

beforeAll(async () => {
  w = await startWooBridge();
  w.fake.addShop(SLUG, { shipmentTracking: true });
  brand = await w.brand({ name: 'Maison Claire' });
});
afterAll(async () => {
  await w?.close();
});

const links = async (externalId: string) =>
  (
    await w.t.pool.query(
      `SELECT l.tracking_ref, o.status FROM connector_orders l JOIN orders o ON o.id = l.order_id
        WHERE l.connection_id = $1 AND l.external_id = $2`,
      [connection.id, externalId],
    )
  ).rows as { tracking_ref: string; status: string }[];
const linkOf = async (externalId: string) => (await links(externalId))[0] ?? null;

/** The link to the store's approval page that the Shops page shows once a connection is started. */
function storeHref(body: string): string {
  const href = body.match(/href="([^"]*\/wc-auth\/v1\/authorize\?[^"]*)"/)?.[1];
  if (!href) throw new Error(`no link to the store on the page:\n${body.slice(0, 500)}`);
  return href.replaceAll('&amp;', '&');
}

describe('connect by key provisioning', () => {
  it('starts from the plugin, goes through sign-in, and links the shop with its webhooks', async () => {
    const user = await createUser(w.t.deps, { brandId: brand.brandId });
    const b = new Browser(w.t.app, '10.77.0.1');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    const plugin = await w.t.app.inject({
      url: `/connectors/woocommerce/connect?shop_url=${encodeURIComponent(`${w.fake.url(SLUG)}/`)}`,
    });
    expect(plugin.statusCode).toBe(303);
    // The plugin's link only shows the store and the Shops page's form; posting it starts the link.
    const confirm = await b.get(plugin.headers.location as string);
    expect(confirm.status, confirm.body).toBe(200);
    expect(confirm.body).toContain(`Connect the store ${w.fake.url(SLUG)}/ to Maison Claire?`);
    const started = await b.post('/account/shops/woocommerce/connect', {
      _csrf: csrfOf(confirm.body),
      url: `${w.fake.url(SLUG)}/`,
    });
    expect(started.status, started.body).toBe(200);
    const authorize = new URL(storeHref(started.body));
    expect(authorize.pathname).toBe(`/${SLUG}/wc-auth/v1/authorize`);
    expect(authorize.searchParams.get('scope')).toBe('read_write');
    expect(authorize.searchParams.get('app_name')).toContain('Maison Claire');
    const connectionId = authorize.searchParams.get('user_id')!;

    // The merchant approves: the shop POSTs the keys to our callback, which must answer 200.
    const back = new URL(await w.fake.approve(authorize.toString()));
    expect(back.searchParams.get('success')).toBe('1');
    const landed = await w.t.app.inject({ url: `${back.pathname}${back.search}` });
    expect(landed.headers.location).toBe(
      `/account/shops?${new URLSearchParams({ connected: w.fake.url(SLUG) })}`,
    );

    connection = await w.t.deps.connections.get(null, connectionId);
    expect(connection).toMatchObject({ platform: 'woocommerce', shop: w.fake.url(SLUG), status: 'active' });
    const shop = w.fake.shop(SLUG);
    expect(shop.keys).toHaveLength(1);
    expect(shop.webhooks.map((h) => [h.topic, h.status, h.deliveryUrl])).toEqual([
      ['order.created', 'active', `${w.base}/connectors/woocommerce/webhooks/${connectionId}`],
      ['order.updated', 'active', `${w.base}/connectors/woocommerce/webhooks/${connectionId}`],
    ]);
    // The creation pings were answered 200 (a form body, on a JSON-only service).
    expect(shop.deliveries.filter((d) => d.kind === 'ping').map((d) => d.result.status)).toEqual([200, 200]);
  });

  it('keeps the keys and the webhook secret unreadable at rest', async () => {
    const shop = w.fake.shop(SLUG);
    const { rows } = await w.t.pool.query(
      'SELECT credentials::text AS c, remote_ids::text AS r FROM connector_connections WHERE id = $1',
      [connection.id],
    );
    const stored = `${rows[0].c} ${rows[0].r}`;
    const key = shop.keys[0]!;
    for (const secret of [key.consumerKey, key.consumerSecret, shop.webhooks[0]!.secret]) {
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(Buffer.from(secret).toString('hex'));
    }
    expect(CONNECTOR_KEY).toHaveLength(32);
  });

  it('refuses a second callback with the same state, and a stranger’s keys, storing nothing', async () => {
    const before = await w.t.pool.query('SELECT count(*)::int AS n FROM connector_connections');
    const res = await w.t.app.inject({
      method: 'POST',
      url: `/connectors/woocommerce/callback/${'a'.repeat(43)}`,
      payload: {
        user_id: connection.id,
        consumer_key: `ck_${'1'.repeat(40)}`,
        consumer_secret: `cs_${'2'.repeat(40)}`,
        key_permissions: 'read_write',
      },
    });
    expect(res.statusCode).toBe(401);
    const after = await w.t.pool.query('SELECT count(*)::int AS n FROM connector_connections');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe('starting a connection', () => {
  const installsOf = async (brandId: string) =>
    (await w.t.pool.query('SELECT state FROM connector_installs WHERE brand_id = $1', [brandId])).rows;

  it('starts nothing from a link another site makes a signed-in owner follow', async () => {
    const victim = await w.brand({ name: 'Victime SARL' });
    const user = await createUser(w.t.deps, { brandId: victim.brandId });
    const b = new Browser(w.t.app, '10.77.0.3');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    w.fake.addShop('attacker-shop');
    const attacker = w.fake.url('attacker-shop');
    const page = await b.get(
      `/account/connectors/woocommerce/connect?shop_url=${encodeURIComponent(attacker)}`,
    );
    expect(page.status).toBe(200);
    expect(page.location).toBeUndefined();
    expect(page.body).toContain(`Connect the store ${attacker} to Victime SARL?`);
    expect(page.body).toContain('form method="post" action="/account/shops/woocommerce/connect"');
    // A form on the other site: no token, or another person's.
    expect((await b.post('/account/shops/woocommerce/connect', { url: attacker })).status).toBe(403);
    const other = await createUser(w.t.deps, { brandId: brand.brandId });
    const ob = new Browser(w.t.app, '10.77.0.4');
    await ob.signIn(other.email, PASSWORD);
    const theirs = csrfOf((await ob.get('/account/shops')).body);
    expect(
      (await b.post('/account/shops/woocommerce/connect', { _csrf: theirs, url: attacker })).status,
    ).toBe(403);
    expect(await installsOf(victim.brandId)).toEqual([]);
    expect(w.fake.shop('attacker-shop').keys).toHaveLength(0);
    // The address is shown as text, whatever it holds.
    const odd = await b.get(
      `/account/connectors/woocommerce/connect?shop_url=${encodeURIComponent('"><b>x')}`,
    );
    expect(odd.body).not.toContain('"><b>x');
    expect(odd.body).toContain('&quot;&gt;&lt;b&gt;x');
  });

  it('is not for an unconfirmed e-mail address', async () => {
    const user = await createUser(w.t.deps, { brandId: brand.brandId, verified: false });
    const b = new Browser(w.t.app, '10.77.0.5');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    w.fake.addShop('unconfirmed-shop');
    const url = w.fake.url('unconfirmed-shop');
    const link = await b.get(`/account/connectors/woocommerce/connect?shop_url=${encodeURIComponent(url)}`);
    expect(link.status).toBe(403);
    expect((await b.submit('/account/shops', '/account/shops/woocommerce/connect', { url })).status).toBe(
      403,
    );
    const key = w.fake.createKey('unconfirmed-shop');
    const pasted = await b.submit('/account/shops', '/account/shops/woocommerce/connect', {
      url,
      consumer_key: key.consumerKey,
      consumer_secret: key.consumerSecret,
    });
    expect(pasted.status).toBe(403);
    expect(w.fake.shop('unconfirmed-shop').webhooks).toHaveLength(0);
    const { rows } = await w.t.pool.query('SELECT 1 FROM connector_installs WHERE shop = $1', [url]);
    expect(rows).toEqual([]);
  });

  it('refuses the keys of a state that expired or whose starter may no longer link, storing nothing', async () => {
    for (const [i, change] of (['expired', 'demoted', 'unconfirmed'] as const).entries()) {
      const starter = await createUser(w.t.deps, { brandId: brand.brandId });
      const b = new Browser(w.t.app, `10.77.1.${i + 1}`);
      expect((await b.signIn(starter.email, PASSWORD)).status).toBe(303);
      const slug = `bound-${change}`;
      w.fake.addShop(slug);
      const started = await b.submit('/account/shops', '/account/shops/woocommerce/connect', {
        url: w.fake.url(slug),
      });
      expect(started.status, started.body).toBe(200);
      if (change === 'expired')
        await w.t.pool.query(
          "UPDATE connector_installs SET expires_at = now() - interval '1 second' WHERE shop = $1",
          [w.fake.url(slug)],
        );
      else if (change === 'demoted')
        await w.t.pool.query("UPDATE users SET role = 'finance' WHERE id = $1", [starter.userId]);
      else await w.t.pool.query('UPDATE users SET email_verified_at = NULL WHERE id = $1', [starter.userId]);
      await expect(w.fake.approve(storeHref(started.body)), change).rejects.toThrow();
      expect(w.fake.shop(slug).keys, change).toHaveLength(0);
      const { rows } = await w.t.pool.query('SELECT 1 FROM connector_connections WHERE shop = $1', [
        w.fake.url(slug),
      ]);
      expect(rows, change).toEqual([]);
    }
  });
});

describe('the Shops page', () => {
  it('links a store with pasted keys, or hands over to the store’s approval page without them', async () => {
    const user = await createUser(w.t.deps, { brandId: brand.brandId });
    const b = new Browser(w.t.app, '10.77.0.2');
    expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
    w.fake.addShop('form-shop');
    const key = w.fake.createKey('form-shop');
    const bad = await b.submit('/account/shops', '/account/shops/woocommerce/connect', {
      url: w.fake.url('form-shop'),
      consumer_key: key.consumerKey,
      consumer_secret: 'cs_wrong',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('consumer secret');
    expect(w.fake.shop('form-shop').webhooks).toHaveLength(0);

    const handOver = await b.submit('/account/shops', '/account/shops/woocommerce/connect', {
      url: `${w.fake.url('form-shop')}/`,
    });
    expect(handOver.status).toBe(200);
    expect(storeHref(handOver.body)).toContain(`${w.fake.url('form-shop')}/wc-auth/v1/authorize?`);

    const linked = await b.submit('/account/shops', '/account/shops/woocommerce/connect', {
      url: w.fake.url('form-shop'),
      consumer_key: key.consumerKey,
      consumer_secret: key.consumerSecret,
    });
    expect(linked.status).toBe(303);
    const page = await b.get(linked.location!);
    expect(page.body).toContain(w.fake.url('form-shop'));
    expect(page.body).toContain('WooCommerce');
    expect(w.fake.shop('form-shop').webhooks).toHaveLength(2);
  });
});

describe('orders and statuses', () => {
  let orderId: number;
  let trackingRef: string;

  it('makes exactly one delivery order of an order paid with our method', async () => {
    const shop = w.fake.shop(SLUG);
    const product = w.fake.addProduct(SLUG, { name: 'Théière fonte', weight: '1.2' });
    ({ id: orderId } = w.fake.createOrder(SLUG, {
      shippingLine: OUR_SHIPPING('express'),
      lineItems: [
        { productId: shop.products[0]!.id, quantity: 2 },
        { productId: product.id, quantity: 1 },
      ],
    }));
    // Coalesced into one delivery, sent twice (WooCommerce's own double delivery in the same second).
    const [log] = await w.fake.flushWebhooks(SLUG);
    expect(log!.result.status).toBe(200);
    const replay = await fetch(log!.url, { method: 'POST', headers: log!.headers, body: log!.body });
    expect(replay.status).toBe(200);
    trackingRef = (await eventually(() => linkOf(String(orderId)), 'the delivery order')).tracking_ref;
    const order = JSON.parse(await w.t.deps.orders.getDetailJson(brand.brandId, trackingRef));
    expect(order).toMatchObject({
      service: 'express',
      reference: String(orderId),
      customer_email: 'claire.martin@example.fr',
      delivery_phone: '+33612345678',
    });
    expect(order.delivery_address).toContain('75011');
    // 2 × 0.45 kg + 1.2 kg = 2.1 kg, from the products (WooCommerce puts no weights on order lines).
    expect(JSON.stringify(order)).toContain('2100');
    expect(await links(String(orderId))).toHaveLength(1);
  });

  it('writes the tracking back: a Shipment Tracking entry and a private note', async () => {
    const shop = w.fake.shop(SLUG);
    await eventually(async () => shop.notes.some((n) => n.orderId === orderId), 'the creation note');
    const items = shop.trackings.get(orderId) ?? [];
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      tracking_number: trackingRef,
      custom_tracking_provider: 'Livraison DLV',
    });
    expect(items[0]!.custom_tracking_link).toContain(`${w.base}/`);
    const note = shop.notes.find((n) => n.orderId === orderId)!;
    expect(note.customerNote).toBe(false);
    expect(note.note).toContain(trackingRef);
  });

  it('adds a note per status as the operator moves the order, and completes it when delivered', async () => {
    const shop = w.fake.shop(SLUG);
    for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'])
      await w.t.deps.orders.setStatus(trackingRef, status, null, testOperator);
    await eventually(
      async () => shop.orders.find((o) => o.id === orderId)!.status === 'completed',
      'completed',
    );
    await eventually(async () => shop.notes.filter((n) => n.orderId === orderId).length === 5, 'five notes');
    const notes = shop.notes.filter((n) => n.orderId === orderId);
    expect(notes.filter((n) => n.customerNote)).toHaveLength(3); // picked up, out for delivery, delivered
    expect(notes.every((n) => n.note.includes(trackingRef))).toBe(true);
    // Our own `completed` comes back as order.updated: stored, and nothing more happens.
    await w.fake.flushWebhooks(SLUG);
    expect(await links(String(orderId))).toHaveLength(1);
  });

  it('cancels the delivery order when the shop cancels the order', async () => {
    const { id } = w.fake.createOrder(SLUG, { shippingLine: OUR_SHIPPING('standard') });
    await w.fake.flushWebhooks(SLUG);
    const link = await eventually(() => linkOf(String(id)), 'the order');
    w.fake.updateOrder(SLUG, id, { status: 'cancelled' });
    await w.fake.flushWebhooks(SLUG);
    await eventually(async () => (await links(String(id)))[0]?.status === 'cancelled', 'cancelled');
    expect(link.status).toBe('pending');
  });

  it('skips orders not shipped with us, and reports an address out of zone', async () => {
    const { id: other } = w.fake.createOrder(SLUG, {}); // flat_rate
    const { id: abroad } = w.fake.createOrder(SLUG, {
      shippingLine: OUR_SHIPPING(),
      shipping: { country: 'BE', postcode: '1000', city: 'Bruxelles' },
    });
    await w.fake.flushWebhooks(SLUG);
    const problems = await eventually(async () => {
      const list = await w.t.deps.connections.problems({
        brandId: brand.brandId,
        connectionId: connection.id,
      });
      return list.find((p) => p.externalId === String(abroad)) && list;
    }, 'the out-of-zone problem');
    expect(problems.find((p) => p.externalId === String(abroad))!.kind).toBe('out_of_zone');
    expect(await links(String(other))).toHaveLength(0);
  });
});

describe('receiver', () => {
  it('answers 401 to a bad signature and stores nothing', async () => {
    const { id } = w.fake.createOrder(SLUG, { shippingLine: OUR_SHIPPING() });
    const body = w.fake.orderJson(SLUG, id);
    const before = await w.t.pool.query('SELECT count(*)::int AS n FROM connector_inbox');
    const res = await fetch(`${w.base}/connectors/woocommerce/webhooks/${connection.id}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-signature': Buffer.from('forged').toString('base64'),
      },
      body,
    });
    expect(res.status).toBe(401);
    const after = await w.t.pool.query('SELECT count(*)::int AS n FROM connector_inbox');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    w.fake.shop(SLUG).pending = []; // this order's webhook is dropped: the poll test below finds it
  });

  it('refuses form bodies that are not a creation ping, elsewhere too', async () => {
    const elsewhere = await w.t.app.inject({
      method: 'POST',
      url: '/public/v1/orders',
      headers: { ...brand.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'webhook_id=3',
    });
    expect(elsewhere.statusCode).toBe(415);
    const unsigned = await w.t.app.inject({
      method: 'POST',
      url: `/connectors/woocommerce/webhooks/${connection.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=3&status=processing',
    });
    expect(unsigned.statusCode).toBe(401);
  });
});
