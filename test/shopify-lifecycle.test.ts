import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../src/domain/orders/state-machine.ts';
import { API, call } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import {
  deliveryOrdersOf,
  fulfillmentsOf,
  installShop,
  type LiveShopify,
  oneDeliveryOrder,
  paidOrder,
  pendingSyncJobs,
  startLiveShopify,
} from './support/shopify-live.ts';
import { eventually, sleep } from './support/webhook-receiver.ts';

/**
 * The whole life of a shop against the fake Shopify, over real HTTP both ways and with the job
 * worker running: install from the account area, paid orders in, tracking out, cancellation,
 * live rates, uninstall.
 */
let live: LiveShopify;

beforeAll(async () => {
  live = await startLiveShopify();
});
afterAll(() => live?.close());

describe('a shop’s whole life', () => {
  it('install → link → paid orders → tracking back → cancellation → uninstall', async () => {
    const { t, fake } = live;
    const { brand, shop, connectionId } = await installShop(live);
    const state = fake.shop(shop);

    // Linking registered our webhooks and the carrier service, with our public URLs.
    expect(state.authorizeRequests[0]).toMatchObject({
      clientId: expect.any(String),
      scope: 'read_orders,write_merchant_managed_fulfillment_orders,write_shipping',
      grantOptions: [],
    });
    expect(state.webhookSubscriptions.map((s) => s.topic).sort()).toEqual([
      'APP_UNINSTALLED',
      'ORDERS_CANCELLED',
      'ORDERS_PAID',
    ]);
    for (const s of state.webhookSubscriptions) {
      expect(s.callbackUrl).toBe(`${live.base}/connectors/shopify/webhooks`);
      expect(s.format).toBe('JSON');
    }
    expect(state.carrierServices).toEqual([
      expect.objectContaining({
        name: 'Livraison DLV',
        callbackUrl: `${live.base}/connectors/shopify/rates`,
        active: true,
        supportsServiceDiscovery: true,
      }),
    ]);
    const { rows: stored } = await t.pool.query(
      'SELECT credentials, remote_ids FROM connector_connections WHERE id = $1',
      [connectionId],
    );
    // The token the fake issued is stored, never in clear.
    expect(stored[0].credentials.toString('latin1')).not.toContain(state.accessTokens[0]);
    expect(stored[0].remote_ids.webhookSubscriptions).toHaveLength(3);

    // orders/paid, delivered twice by Shopify (a retry of one delivery, and a second delivery).
    const order = paidOrder(live, shop);
    const first = await fake.sendWebhook(shop, 'orders/paid', order.payload, { webhookId: `w-${order.id}` });
    const retry = await fake.sendWebhook(shop, 'orders/paid', order.payload, { webhookId: `w-${order.id}` });
    const again = await fake.sendWebhook(shop, 'orders/paid', order.payload);
    expect([first.status, retry.status, again.status]).toEqual([200, 200, 200]);
    const delivery = await oneDeliveryOrder(t, order.gid);
    expect(delivery).toMatchObject({
      brand_id: brand.brandId,
      customer_email: 'claire.martin@example.com',
      reference: order.name,
      delivery_postcode: '75011',
      delivery_recipient: 'Claire Martin',
      delivery_phone: '+33612345678',
      service: 'standard',
      unit_type: 'parcel',
      quantity: 1,
      status: 'pending',
    });
    // 2 × 24.90 + 12.90 shipping; 2 × 450 g.
    expect(Number(delivery.amount_cents)).toBe(6270);
    expect(Number(delivery.unit_weight_grams)).toBe(900);

    // Nothing reaches Shopify while the parcel waits for pickup: no fulfillment, no "shipped"
    // e-mail to the customer, and the merchant can still cancel the order there.
    await sleep(500);
    expect(fulfillmentsOf(fake, shop, order.gid)).toEqual([]);
    expect(state.calls.filter((c) => c.operation === 'fulfillmentCreate')).toEqual([]);

    // Picked up: one fulfillment with our carrier, number and public tracking page, then the
    // pickup as its first event.
    await t.deps.orders.setStatus(delivery.tracking_ref, 'picked_up', null, testOperator);
    const [fulfillment] = await eventually(async () => {
      const found = fulfillmentsOf(fake, shop, order.gid);
      return found.length > 0 && found;
    });
    const { order: json } = (
      await call(t.app, { url: `${API}/orders/${delivery.tracking_ref}`, headers: brand.headers })
    ).data;
    expect(fulfillment!.trackingInfo).toEqual([
      { company: 'Livraison DLV', number: delivery.tracking_ref, url: json.tracking_url },
    ]);
    expect(json.tracking_url).toMatch(new RegExp(`^${live.base}/`));
    expect(fulfillment!.notifyCustomer).toBe(true);
    expect(fulfillment!.fulfillmentOrderIds).toEqual(
      state.orders.find((o) => o.gid === order.gid)!.fulfillmentOrders.map((fo) => fo.id),
    );

    // The operator moves the parcel on: each status becomes a fulfillment event, in order.
    const moves: [OrderStatus, string][] = [
      ['picked_up', 'CARRIER_PICKED_UP'],
      ['in_transit', 'IN_TRANSIT'],
      ['out_for_delivery', 'OUT_FOR_DELIVERY'],
      ['failed_attempt', 'ATTEMPTED_DELIVERY'],
      ['out_for_delivery', 'OUT_FOR_DELIVERY'],
      ['delivered', 'DELIVERED'],
    ];
    for (const [index, [status, expected]] of moves.entries()) {
      const before = new Date();
      if (index > 0) await t.deps.orders.setStatus(delivery.tracking_ref, status, null, testOperator);
      const events = await eventually(async () => {
        const found = state.fulfillmentEvents.filter((e) => e.fulfillmentId === fulfillment!.id);
        return found.length === index + 1 && found;
      });
      const event = events.at(-1)!;
      expect(event.status).toBe(expected);
      const happened = new Date(event.happenedAt).getTime();
      if (index > 0) expect(happened).toBeGreaterThanOrEqual(before.getTime() - 1000);
      expect(happened).toBeLessThanOrEqual(Date.now());
      expect(event.estimatedDeliveryAt).toBe(
        status === 'delivered' ? null : `${json.promised_date}T16:00:00Z`,
      );
    }
    expect(fulfillmentsOf(fake, shop, order.gid)).toHaveLength(1);

    // orders/cancelled on another order cancels its delivery order.
    const other = paidOrder(live, shop);
    await fake.sendWebhook(shop, 'orders/paid', other.payload);
    const otherDelivery = await oneDeliveryOrder(t, other.gid);
    const cancelled = await fake.sendWebhook(shop, 'orders/cancelled', fake.cancelOrder(shop, other.gid));
    expect(cancelled.status).toBe(200);
    await eventually(async () => (await deliveryOrdersOf(t, other.gid))[0]?.status === 'cancelled');
    expect(fulfillmentsOf(fake, shop, other.gid)).toEqual([]);
    expect((await deliveryOrdersOf(t, order.gid))[0].status).toBe('delivered');
    expect(otherDelivery.tracking_ref).not.toBe(delivery.tracking_ref);

    // The merchant uninstalls the app: the link is disconnected and its token erased.
    const [uninstalled] = await fake.uninstall(shop);
    expect(uninstalled!.status).toBe(200);
    const gone = await eventually(async () => {
      const { rows } = await t.pool.query(
        'SELECT status, credentials FROM connector_connections WHERE id = $1',
        [connectionId],
      );
      return rows[0].status === 'disconnected' && rows[0];
    });
    expect(gone.credentials).toBeNull();
  });
});

describe('the fulfillment waits for pickup', () => {
  it('a delivery order cancelled before pickup leaves the Shopify order unfulfilled, and sends nothing', async () => {
    const { t, fake } = live;
    const { brand, shop } = await installShop(live);
    const order = paidOrder(live, shop);
    await fake.sendWebhook(shop, 'orders/paid', order.payload);
    const delivery = await oneDeliveryOrder(t, order.gid);
    const cancelled = await call(t.app, {
      method: 'POST',
      url: `${API}/orders/${delivery.tracking_ref}/cancel`,
      headers: brand.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await sleep(800);
    const state = fake.shop(shop);
    expect(fulfillmentsOf(fake, shop, order.gid)).toEqual([]);
    expect(state.orders.find((o) => o.gid === order.gid)!.fulfillmentOrders.map((fo) => fo.status)).toEqual([
      'OPEN',
    ]);
    expect(
      state.calls.filter(
        (c) => c.operation === 'fulfillmentCreate' || c.operation === 'fulfillmentEventCreate',
      ),
    ).toEqual([]);
    expect(await pendingSyncJobs(t)).toEqual([]);
  });

  it('notifies the customer per the link’s setting at pickup, not at the order’s creation', async () => {
    const { t, fake } = live;
    const { brand, shop, connectionId } = await installShop(live);
    const order = paidOrder(live, shop);
    await fake.sendWebhook(shop, 'orders/paid', order.payload);
    const delivery = await oneDeliveryOrder(t, order.gid);
    await t.deps.connections.updateSettings(brand.brandId, connectionId, { notifyCustomer: false });
    await t.deps.orders.setStatus(delivery.tracking_ref, 'picked_up', null, testOperator);
    const [fulfillment] = await eventually(async () => {
      const found = fulfillmentsOf(fake, shop, order.gid);
      return found.length > 0 && found;
    });
    expect(fulfillment!.notifyCustomer).toBe(false);
    await eventually(async () =>
      fake.shop(shop).fulfillmentEvents.some((e) => e.fulfillmentId === fulfillment!.id),
    );
    expect(
      fake.shop(shop).fulfillmentEvents.filter((e) => e.fulfillmentId === fulfillment!.id),
    ).toMatchObject([{ status: 'CARRIER_PICKED_UP' }]);
  });
});

describe('which paid orders are ours', () => {
  it('only those shipped with our carrier service’s rate: the shop’s own “Standard”, “Express”, “Livraison” are not', async () => {
    const { t, fake } = live;
    const { shop } = await installShop(live);
    const skipped = [
      ...['Standard', 'Express', 'Livraison', 'standard'].map((name) => fake.merchantRate(name)),
      // Another carrier-calculated service whose codes look like ours.
      { code: 'express', title: 'Colissimo — Express', source: 'Colissimo' },
    ].map((shippingLine) => fake.newOrder(shop, { shippingLine }));
    const ours = fake.newOrder(shop, {
      shippingLine: fake.carrierRate(shop, 'express', 'Livraison DLV — Express — same day'),
    });
    for (const order of [...skipped, ours])
      expect((await fake.sendWebhook(shop, 'orders/paid', order.payload)).status).toBe(200);
    expect(JSON.parse(skipped[0]!.payload).shipping_lines[0]).toMatchObject({
      code: 'Standard',
      title: 'Standard',
      source: 'shopify',
      carrier_identifier: null,
    });
    expect(JSON.parse(ours.payload).shipping_lines[0]).toMatchObject({
      code: 'express',
      source: 'Livraison DLV',
      carrier_identifier: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(await oneDeliveryOrder(t, ours.gid)).toMatchObject({ service: 'express', status: 'pending' });
    const outcomes = await eventually(async () => {
      const { rows } = await t.pool.query(
        'SELECT outcome FROM connector_inbox WHERE external_order_id = ANY($1) AND processed_at IS NOT NULL',
        [skipped.map((o) => o.gid)],
      );
      return rows.length === skipped.length && rows.map((r) => r.outcome as string);
    });
    expect(outcomes).toEqual(skipped.map(() => 'skipped: not shipped with our services'));
    for (const order of skipped) expect(await deliveryOrdersOf(t, order.gid)).toHaveLength(0);
    expect(skipped.flatMap((o) => fulfillmentsOf(fake, shop, o.gid))).toEqual([]);
  });
});

describe('carrier-service rates at checkout', () => {
  it('answers the fake’s rate request in Shopify’s shape with the prices of POST /rates', async () => {
    const { t, fake } = live;
    const { brand, shop } = await installShop(live);
    const asked = await fake.requestRates(shop);
    expect(asked.status).toBe(200);
    // The fake's cart: two items of 450 g, to 75011.
    const api = await call(t.app, {
      method: 'POST',
      url: `${API}/rates`,
      headers: brand.headers,
      payload: { delivery_zip: '75011', unit_type: 'parcel', quantity: 1, unit_weight: '900g' },
    });
    expect(api.data.rates.length).toBeGreaterThan(0);
    expect(asked.json.rates).toEqual(
      api.data.rates.map((rate: Record<string, any>) =>
        expect.objectContaining({
          service_code: rate.service,
          total_price: String(Math.round(rate.price_eur * 100)),
          currency: 'EUR',
        }),
      ),
    );
    const outOfZone = await fake.requestRates(shop, {
      destination: { country: 'FR', postal_code: '13001', city: 'Marseille' },
    });
    expect(outOfZone.json).toEqual({ rates: [] });
  });
});
