import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRYING } from '../src/connectors/prestashop/shop-health.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { testOperator } from './support/audit.ts';
import { type FakePrestaShop, startFakePrestaShop } from './support/fake-prestashop.ts';
import { type LiveApi, startLiveApi } from './support/live-api.ts';
import {
  deliveryOrdersOf,
  eventually,
  everyPushProcessed,
  type LinkedPrestaShop,
  linkPrestaShop,
  push,
  runRetriesNow,
} from './support/prestashop.ts';

// The PrestaShop bridge's life, against the fake shop on loopback and the real API with its worker:
// link → paid order pushed (again, and concurrently) → one delivery order → tracking number and the
// delivered state written back as the operator moves it → the shop cancels another → cancelled. Then
// the shop down (retried, the brand sees it) and the key revoked (the link breaks).

let live: LiveApi;
let fake: FakePrestaShop;
let brandId: string;
let linked: LinkedPrestaShop;

beforeAll(async () => {
  live = await startLiveApi();
  fake = await startFakePrestaShop();
  brandId = (await live.brand()).brandId;
  linked = await linkPrestaShop(live, fake, brandId);
}, 30_000);
afterAll(async () => {
  await fake?.close();
  await live?.close();
});

const trackingNumberOf = (orderId: number) =>
  String(linked.shop.tables.order_carriers!.find((oc) => oc.id_order === String(orderId))!.tracking_number);

async function moveTo(trackingRef: string, ...statuses: string[]) {
  for (const status of statuses) await live.t.deps.orders.setStatus(trackingRef, status, null, testOperator);
}

async function linkRow() {
  return live.t.deps.connections.get(brandId, linked.connection.id);
}

/** A new paid order pushed by the module, once the bridge has made its delivery order. */
async function pushedOrder() {
  const order = fake.createOrder(linked.slug);
  await push(fake, linked, order.id);
  const ref = await eventually(
    async () => (await deliveryOrdersOf(live, linked.connection.id, order.id))[0]?.tracking_ref,
    'the delivery order',
  );
  return { order, ref };
}

const shopOrderDelivered = (orderId: number) =>
  eventually(
    async () => linked.shop.tables.orders!.find((o) => o.id === orderId)!.current_state === '5',
    'the shop order delivered',
  );

/** The order_histories POSTs the shop got for this order. */
const historyPostsOf = (orderId: number) =>
  linked.shop.calls.filter(
    (c) =>
      c.path === '/api/order_histories' && c.body.includes(`<id_order><![CDATA[${orderId}]]></id_order>`),
  );

/** A new order pushed and moved to delivered: the order_histories POST and the e-mails the shop sent. */
async function deliveredOrder() {
  const { order, ref } = await pushedOrder();
  await eventually(async () => trackingNumberOf(order.id) === ref, 'the tracking number');
  await moveTo(ref, 'picked_up', 'in_transit', 'out_for_delivery', 'delivered');
  await shopOrderDelivered(order.id);
  return {
    post: historyPostsOf(order.id)[0],
    mails: linked.shop.mails.filter((m) => m.idOrder === order.id),
  };
}

describe('a paid order pushed by the module', () => {
  it('becomes exactly one delivery order, however often and concurrently it is pushed', async () => {
    const order = fake.createOrder(linked.slug, { carrier: 'express' });
    const first = await push(fake, linked, order.id);
    expect(JSON.parse(first.body)).toEqual({ ok: true, duplicate: false });
    // The module retrying the same push, new pushes of the same order, some at the same time.
    const again = await push(fake, linked, order.id, 'order.paid', { deliveryId: first.deliveryId });
    expect(JSON.parse(again.body)).toEqual({ ok: true, duplicate: true });
    await Promise.all([1, 2, 3, 4].map(() => push(fake, linked, order.id)));
    const [delivery] = await eventually(async () => {
      const rows = await deliveryOrdersOf(live, linked.connection.id, order.id);
      return rows.length > 0 && rows;
    }, 'the delivery order');
    // Every push processed, still one.
    await everyPushProcessed(live, linked);
    expect(await deliveryOrdersOf(live, linked.connection.id, order.id)).toHaveLength(1);
    const detail = await live.t.deps.orders.get(brandId, delivery!.tracking_ref);
    expect(detail).toMatchObject({
      service: 'express',
      customerEmail: 'claire.martin@example.fr',
      deliveryEmail: 'claire.martin@example.fr',
      deliveryPhone: '+33612345678',
      deliveryRecipient: 'Claire Martin',
      deliveryPostcode: '75011',
      amountCents: 5670,
      unitType: 'parcel',
      quantity: 1,
      unitWeightGrams: 900,
      reference: order.reference,
    });
    expect(detail.deliveryAddress).toBe('12 rue Oberkampf, Bâtiment B, 3e étage 75011 Paris');
  });

  it('gets its tracking number, then the delivered state, written back as the operator moves it', async () => {
    const { order, ref } = await pushedOrder();
    await eventually(async () => trackingNumberOf(order.id) === ref, 'the tracking number in order_carriers');
    const put = linked.shop.calls.find(
      (c) => c.method === 'PUT' && c.path.startsWith('/api/order_carriers/'),
    );
    expect(put?.status).toBe(200);
    // The whole object went back (PUT replaces it): the weight the shop had is still there.
    expect(linked.shop.tables.order_carriers!.find((oc) => oc.id_order === String(order.id))!.weight).toBe(
      '0.900000',
    );
    await moveTo(ref, 'picked_up', 'in_transit', 'out_for_delivery');
    await moveTo(ref, 'delivered');
    await shopOrderDelivered(order.id);
    const histories = linked.shop.tables.order_histories!.filter((h) => h.id_order === String(order.id));
    expect(histories.map((h) => h.id_order_state)).toEqual(['2', '5']);
    // The link notifies customers (the default): the shop sends the delivered state's e-mail.
    expect(linked.shop.mails.filter((m) => m.idOrder === order.id)).toEqual([
      { idOrder: order.id, idOrderState: 5, to: 'claire.martin@example.fr' },
    ]);
  });

  it('asks the shop for no e-mail when the link does not notify customers', async () => {
    await live.t.deps.connections.updateSettings(brandId, linked.connection.id, { notifyCustomer: false });
    try {
      const { post, mails } = await deliveredOrder();
      expect(post?.query.sendemail).toBeUndefined();
      expect(mails).toEqual([]);
    } finally {
      await live.t.deps.connections.updateSettings(brandId, linked.connection.id, { notifyCustomer: true });
    }
  });

  it('takes the customer e-mail choice from the Shops page, which changes what the shop is asked', async () => {
    const owner = await createUser(live.t.deps, { brandId });
    const b = new Browser(live.t.app, '10.31.0.1');
    expect((await b.signIn(owner.email, PASSWORD)).status).toBe(303);
    const id = linked.connection.id;
    const settings = (body: string) =>
      body.slice(body.indexOf(`action="/account/shops/${id}/settings"`)).split('</form>')[0]!;
    const page = await b.get('/account/shops');
    expect(settings(page.body)).toContain('<legend>Tracking e-mail to the customer</legend>');
    expect(settings(page.body)).toContain(
      'value="yes" checked> Yes: PrestaShop e-mails the customer when the order reaches its delivered state',
    );
    expect(settings((await b.get('/account/shops?lang=fr')).body)).toContain(
      'Oui : PrestaShop envoie un e-mail au client quand la commande passe à l’état livré',
    );
    const save = (notify: string) =>
      b.submit('/account/shops', `/account/shops/${id}/settings`, {
        order_filter: linked.connection.orderFilter,
        notify_customer: notify,
      });
    try {
      expect((await save('no')).status).toBe(303);
      expect(settings((await b.get('/account/shops')).body)).toContain('value="no" checked>');
      const quiet = await deliveredOrder();
      expect(quiet.post?.query.sendemail).toBeUndefined();
      expect(quiet.mails).toEqual([]);
      expect((await save('yes')).status).toBe(303);
      const told = await deliveredOrder();
      expect(told.post?.query.sendemail).toBe('1');
      expect(told.mails).toHaveLength(1);
    } finally {
      await live.t.deps.connections.updateSettings(brandId, id, { notifyCustomer: true });
    }
  });

  it('gets the delivered state once when the shop applied it but its answer was lost', async () => {
    const { order, ref } = await pushedOrder();
    await eventually(async () => trackingNumberOf(order.id) === ref, 'the tracking number');
    fake.loseAnswerOf(linked.slug, 'POST', '/api/order_histories');
    await moveTo(ref, 'picked_up', 'in_transit', 'out_for_delivery', 'delivered');
    const reads = () =>
      linked.shop.calls.filter((c) => c.method === 'GET' && c.path === `/api/orders/${order.id}`);
    // The first try applied it (the answer lost); the retry reads the order before writing again.
    await eventually(async () => {
      await runRetriesNow(live, 'prestashop_sync_order');
      return reads().length >= 2;
    }, 'the retry reading the order');
    await eventually(async () => (await linkRow()).statusReason === null, 'the retry done');
    const histories = linked.shop.tables.order_histories!.filter((h) => h.id_order === String(order.id));
    expect(histories.map((h) => h.id_order_state)).toEqual(['2', '5']);
    expect(historyPostsOf(order.id)).toHaveLength(1);
  });

  it('is cancelled when the shop cancels it', async () => {
    const order = fake.createOrder(linked.slug);
    await push(fake, linked, order.id);
    await eventually(
      async () => (await deliveryOrdersOf(live, linked.connection.id, order.id))[0],
      'created',
    );
    fake.setOrderState(linked.slug, order.id, 6);
    await push(fake, linked, order.id, 'order.cancelled');
    await eventually(
      async () => (await deliveryOrdersOf(live, linked.connection.id, order.id))[0]?.status === 'cancelled',
      'the delivery order cancelled',
    );
  });
});

describe('when the shop cannot take the statuses', () => {
  it('retries while the shop is down, tells the brand, and clears that once it is back', async () => {
    const order = fake.createOrder(linked.slug);
    fake.setMode(linked.slug, 'down');
    await push(fake, linked, order.id);
    await eventually(async () => (await linkRow()).statusReason?.startsWith(RETRYING), 'the link noting it');
    const listed = await live.t.deps.connections.list(brandId);
    expect(listed.find((l) => l.connection.id === linked.connection.id)?.connection).toMatchObject({
      status: 'active',
      statusReason: expect.stringContaining('503'),
    });
    fake.setMode(linked.slug, 'up');
    const ref = (await deliveryOrdersOf(live, linked.connection.id, order.id))[0]!.tracking_ref;
    await eventually(async () => {
      await runRetriesNow(live, 'prestashop_sync_order');
      return trackingNumberOf(order.id) === ref;
    }, 'the retry writing the tracking number');
    await eventually(async () => (await linkRow()).statusReason === null, 'the note cleared');
  });

  it('breaks the link when the shop refuses the key (401), and sends nothing more', async () => {
    const order = fake.createOrder(linked.slug);
    fake.setMode(linked.slug, 'unauthorized');
    await push(fake, linked, order.id);
    await eventually(async () => (await linkRow()).status === 'broken', 'the link broken');
    expect((await linkRow()).statusReason).toMatch(/refused the Webservice key \(401\)/);
    fake.setMode(linked.slug, 'up');
    const before = linked.shop.calls.length;
    const ref = (await deliveryOrdersOf(live, linked.connection.id, order.id))[0]!.tracking_ref;
    await moveTo(ref, 'picked_up', 'in_transit', 'out_for_delivery', 'delivered');
    await new Promise((r) => setTimeout(r, 500));
    expect(linked.shop.calls.length).toBe(before);
  });
});
