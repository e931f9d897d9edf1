import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from '../src/connectors/connection.ts';
import type { TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { runDlv } from './support/run-cli.ts';
import { CONNECTOR_KEY } from './support/shopify.ts';
import { eventually, OUR_SHIPPING, startWooBridge, type WooBridge } from './support/woocommerce.ts';

/**
 * What goes wrong between a shop and the bridge, against the fake WooCommerce and the live service:
 * linking from the command line, a lost webhook found by the poll (and by `resync --since`), the
 * shop down (retried; the brand sees it), a revoked key (the link breaks, nothing more is sent), a
 * webhook WooCommerce disabled after failed deliveries (reported and reactivated).
 */
let w: WooBridge;
let brand: TestBrand;
let shops = 0;

beforeAll(async () => {
  w = await startWooBridge();
  brand = await w.brand();
});
afterAll(async () => {
  await w?.close();
});

const env = () => ({
  DATABASE_URL: w.databaseUrl,
  CONNECTORS_ALLOW_INSECURE: '1',
  CONNECTOR_SECRET_KEY: CONNECTOR_KEY.toString('hex'),
  PUBLIC_BASE_URL: w.base,
  LOG_LEVEL: 'silent',
});

/** A new shop linked with a key pair made in its admin (what the account form and the CLI do). */
async function linkedShop(options: { shipmentTracking?: boolean } = {}) {
  const slug = `shop-${++shops}`;
  const connection = await w.linkShop(brand.brandId, slug, options);
  return { slug, shop: w.fake.shop(slug), connection };
}

async function deliveryOf(connection: Connection, externalId: number) {
  const { rows } = await w.t.pool.query(
    `SELECT l.tracking_ref, o.status FROM connector_orders l JOIN orders o ON o.id = l.order_id
      WHERE l.connection_id = $1 AND l.external_id = $2`,
    [connection.id, String(externalId)],
  );
  return rows as { tracking_ref: string; status: string }[];
}
const oneDelivery = async (c: Connection, id: number) =>
  (await deliveryOf(c, id)).length === 1 ? true : null;

describe('dlv connectors woocommerce link', () => {
  it('links a shop with pasted keys, and refuses bad input storing nothing', async () => {
    w.fake.addShop('cli-shop');
    const key = w.fake.createKey('cli-shop');
    const bad = await runDlv(
      [
        'connectors',
        'woocommerce',
        'link',
        '--brand',
        brand.brandId,
        '--url',
        w.fake.url('cli-shop'),
        '--key',
        'nope',
        '--secret',
        key.consumerSecret,
      ],
      env(),
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('consumer_key');
    const internal = await runDlv(
      [
        'connectors',
        'woocommerce',
        'link',
        '--brand',
        brand.brandId,
        '--url',
        'https://10.0.0.8/shop',
        '--key',
        key.consumerKey,
        '--secret',
        key.consumerSecret,
      ],
      { ...env(), CONNECTORS_ALLOW_INSECURE: '0' },
    );
    expect(internal.code).not.toBe(0);
    expect(internal.stderr).toMatch(/10\.0\.0\.8 is not an allowed address/);
    const readOnly = w.fake.createKey('cli-shop', 'read');
    const refused = await runDlv(
      [
        'connectors',
        'woocommerce',
        'link',
        '--brand',
        brand.brandId,
        '--url',
        w.fake.url('cli-shop'),
        '--key',
        readOnly.consumerKey,
        '--secret',
        readOnly.consumerSecret,
      ],
      env(),
    );
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('write permissions');
    expect(w.fake.shop('cli-shop').webhooks).toHaveLength(0);

    const ok = await runDlv(
      [
        'connectors',
        'woocommerce',
        'link',
        '--brand',
        brand.brandId,
        '--url',
        `${w.fake.url('cli-shop')}/`,
        '--key',
        key.consumerKey,
        '--secret',
        key.consumerSecret,
        '--json',
      ],
      env(),
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).not.toContain(key.consumerSecret);
    const linked = JSON.parse(ok.stdout);
    expect(linked).toMatchObject({ platform: 'woocommerce', shop: w.fake.url('cli-shop'), status: 'active' });
    expect(w.fake.shop('cli-shop').webhooks).toHaveLength(2);

    const again = await runDlv(
      [
        'connectors',
        'woocommerce',
        'link',
        '--brand',
        brand.brandId,
        '--url',
        w.fake.url('cli-shop'),
        '--key',
        key.consumerKey,
        '--secret',
        key.consumerSecret,
      ],
      env(),
    );
    expect(again.stderr).toContain('already linked');

    const gone = await runDlv(['connectors', 'disconnect', linked.id], env());
    expect(gone.code, gone.stderr).toBe(0);
    expect(w.fake.shop('cli-shop').webhooks).toHaveLength(0);
  });
});

describe('the poll', () => {
  it('finds an order whose webhook was lost, exactly once', async () => {
    const { slug, shop, connection } = await linkedShop();
    const { id } = w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING() });
    shop.pending = []; // the webhook is lost (WooCommerce never retries one)
    const res = await runDlv(['connectors', 'resync', connection.id, '--json'], env());
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ seen: 1, stored: 1 });
    await eventually(() => oneDelivery(connection, id), 'the delivery order');
    // Polled again, and the webhook after all: the same state is not stored twice.
    expect((await w.t.deps.woocommerce!.poll.poll(connection.id)).stored).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(await deliveryOf(connection, id)).toHaveLength(1);
  });

  it('fetches older orders again with resync --since', async () => {
    const { slug, connection } = await linkedShop();
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000);
    const { id } = w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING(), createdAt: yesterday });
    w.fake.shop(slug).pending = [];
    expect((await w.t.deps.woocommerce!.poll.poll(connection.id)).seen).toBe(0);
    const bad = await runDlv(['connectors', 'resync', connection.id, '--since', 'yesterday'], env());
    expect(bad.stderr).toContain('since');
    const res = await runDlv(
      [
        'connectors',
        'resync',
        connection.id,
        '--since',
        new Date(yesterday.getTime() - 60_000).toISOString(),
      ],
      env(),
    );
    expect(res.code, res.stderr).toBe(0);
    await eventually(() => oneDelivery(connection, id), 'the older order');
  });

  it('shop unreachable: the poll reports it, the order job retries, and all is caught up', async () => {
    const { slug, shop, connection } = await linkedShop();
    const { id: first } = w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING() });
    // The shop goes down just after its webhook for the order reached us (delivered here by hand,
    // signed as WooCommerce signs it): the job that reads the order finds it down.
    w.fake.setMode(slug, 'down');
    shop.pending = [];
    const hook = shop.webhooks.find((h) => h.topic === 'order.created')!;
    const body = w.fake.orderJson(slug, first);
    const delivered = await fetch(hook.deliveryUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-signature': createHmac('sha256', hook.secret).update(body).digest('base64'),
      },
      body,
    });
    expect(delivered.status).toBe(200);
    const { id: second } = w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING() });
    expect(await w.fake.flushWebhooks(slug)).toEqual([]); // a site down runs no queue
    await expect(w.t.deps.woocommerce!.poll.poll(connection.id)).rejects.toThrow(/503/);
    const show = await runDlv(['connectors', 'show', connection.id], env());
    expect(show.stdout).toMatch(/error: +the shop answered 503/);
    expect(await deliveryOf(connection, first)).toHaveLength(0);

    w.fake.setMode(slug, 'up');
    shop.pending = []; // the second order's webhook is lost too
    await w.t.deps.woocommerce!.poll.poll(connection.id);
    await eventually(() => oneDelivery(connection, second), 'the order polled after the outage');
    await eventually(() => oneDelivery(connection, first), 'the order whose job retried', 20_000);
    const healthy = await w.t.deps.connections.get(null, connection.id);
    expect(healthy.syncError).toBeNull();
    expect(healthy.lastSyncedAt).not.toBeNull();
  });

  it('reports and reactivates a webhook WooCommerce disabled after failed deliveries', async () => {
    const { slug, shop, connection } = await linkedShop();
    const created = shop.webhooks.find((h) => h.topic === 'order.created')!;
    const secret = created.secret;
    created.secret = 'a secret we do not know'; // every delivery now fails our signature check (401)
    const orders: number[] = [];
    for (let i = 0; i < 7; i++) {
      orders.push(w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING() }).id);
      await w.fake.flushWebhooks(slug);
    }
    expect(created.status).toBe('disabled'); // the 7th consecutive failure
    created.secret = secret;
    const summary = await w.t.deps.woocommerce!.poll.poll(connection.id);
    expect(summary.webhooks.join()).toContain('reactivated');
    expect(created.status).toBe('active');
    const show = await runDlv(['connectors', 'show', connection.id, '--json'], env());
    expect(JSON.parse(show.stdout).webhook_notice).toMatch(/disabled by WooCommerce/);
    // The orders whose webhooks failed were found by that poll, each once.
    for (const id of orders) await eventually(() => oneDelivery(connection, id), `order ${id}`);
  });
});

describe('statuses back', () => {
  it('a revoked key breaks the link and stops sending', async () => {
    const { slug, shop, connection } = await linkedShop();
    const { id } = w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING() });
    await w.fake.flushWebhooks(slug);
    await eventually(() => oneDelivery(connection, id), 'the delivery order');
    const [delivery] = await deliveryOf(connection, id);
    await eventually(async () => shop.notes.some((n) => n.orderId === id), 'the creation note');
    w.fake.setMode(slug, 'unauthorized');
    await w.t.deps.orders.setStatus(delivery!.tracking_ref, 'picked_up', null, testOperator);
    const broken = await eventually(async () => {
      const c = await w.t.deps.connections.get(null, connection.id);
      return c.status === 'broken' ? c : null;
    }, 'the broken link');
    expect(broken.statusReason).toContain('401');
    const calls = shop.calls.length;
    await w.t.deps.orders.setStatus(delivery!.tracking_ref, 'in_transit', null, testOperator);
    await new Promise((r) => setTimeout(r, 500));
    expect(shop.calls.length).toBe(calls);
    const list = await runDlv(['connectors', 'list', '--brand', brand.brandId], env());
    expect(list.stdout).toMatch(/broken \(WooCommerce refused the API key/);
  });

  it('a customer note for the statuses the customer cares about, none when the brand turned them off', async () => {
    const { slug, shop, connection } = await linkedShop();
    const settings = await runDlv(['connectors', 'settings', connection.id, '--notify', 'no'], env());
    expect(settings.code, settings.stderr).toBe(0);
    const { id } = w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING() });
    await w.fake.flushWebhooks(slug);
    await eventually(() => oneDelivery(connection, id), 'the delivery order');
    const [delivery] = await deliveryOf(connection, id);
    await w.t.deps.orders.setStatus(delivery!.tracking_ref, 'picked_up', null, testOperator);
    await eventually(async () => shop.notes.filter((n) => n.orderId === id).length === 2, 'two notes');
    expect(shop.notes.some((n) => n.customerNote)).toBe(false);
    // No Shipment Tracking extension on this shop: asked once, remembered as absent.
    const c = await w.t.deps.connections.get(null, connection.id);
    expect(c.syncState.shipmentTracking).toBe('absent');
  });
});

describe('a status job run again (a worker killed after the shop wrote the note)', () => {
  it('finds its note on the order and adds no second one', async () => {
    const { slug, shop, connection } = await linkedShop({ shipmentTracking: true });
    const { id } = w.fake.createOrder(slug, { shippingLine: OUR_SHIPPING() });
    await w.fake.flushWebhooks(slug);
    await eventually(() => oneDelivery(connection, id), 'the delivery order');
    const [delivery] = await deliveryOf(connection, id);
    await w.t.deps.orders.setStatus(delivery!.tracking_ref, 'picked_up', null, testOperator);
    const notes = () => shop.notes.filter((n) => n.orderId === id);
    await eventually(async () => notes().length === 2, 'the creation and pickup notes');
    const { rows: events } = await w.t.pool.query(
      `SELECT id FROM outbox_events WHERE data->'order'->>'tracking_ref' = $1 ORDER BY created_at`,
      [delivery!.tracking_ref],
    );
    expect(events).toHaveLength(2);
    for (const event of events)
      expect(await w.t.deps.woocommerce!.status.handle(event.id, { rerun: true })).toContain('already there');
    expect(notes()).toHaveLength(2);
    expect(shop.trackings.get(id)).toHaveLength(1);
  });
});
