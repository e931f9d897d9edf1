import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebserviceKey } from './support/fake-prestashop/state.ts';
import { type FakePrestaShop, startFakePrestaShop } from './support/fake-prestashop.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

// The fake PrestaShop's own tests: its Webservice as a bridge will use it (JSON reads, XML writes),
// and the module's push, whose signature is recomputed here.

let fake: FakePrestaShop;
let receiver: Receiver;
let key: WebserviceKey;
const SHOP = 'boutique';

async function ws(
  path: string,
  init: { method?: string; body?: string; key?: string | null; json?: boolean; shop?: string } = {},
) {
  const url = new URL(`${fake.url(init.shop ?? SHOP)}/api${path}`);
  if (init.json !== false) url.searchParams.set('output_format', 'JSON');
  const user = init.key === undefined ? key.key : init.key;
  const headers: Record<string, string> = {};
  if (user !== null) headers.authorization = `Basic ${Buffer.from(`${user}:`).toString('base64')}`;
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // XML or empty
  }
  return { status: response.status, headers: response.headers, text, json };
}

const carrierXml = (fields: Record<string, string | number>) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<prestashop xmlns:xlink="http://www.w3.org/1999/xlink"><order_carrier>${Object.entries(fields)
    .map(([k, v]) => `<${k}><![CDATA[${v}]]></${k}>`)
    .join('')}</order_carrier></prestashop>`;

beforeAll(async () => {
  receiver = await startReceiver();
  fake = await startFakePrestaShop();
  fake.addShop(SHOP);
  key = fake.createKey(SHOP);
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

describe('authentication', () => {
  it('takes the key as the Basic user (or ws_key) and refuses others with codes 16, 18, 20', async () => {
    expect((await ws('/orders')).status).toBe(200);
    const byParam = await fetch(`${fake.url(SHOP)}/api/orders?output_format=JSON&ws_key=${key.key}`);
    expect(byParam.status).toBe(200);
    const none = await ws('/orders', { key: null });
    expect(none).toMatchObject({ status: 401, json: { errors: [{ code: 16 }] } });
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="Welcome to PrestaShop Webservice/);
    expect((await ws('/orders', { key: 'short' })).json.errors[0].code).toBe(18);
    expect((await ws('/orders', { key: 'A'.repeat(32) })).json).toEqual({
      errors: [{ code: 20, message: 'Authentification key is not active' }],
    });
    fake.setMode(SHOP, 'unauthorized');
    expect((await ws('/orders')).json.errors[0].code).toBe(20);
    fake.setMode(SHOP, 'down');
    expect((await ws('/orders')).status).toBe(503);
    fake.setMode(SHOP, 'up');
  });

  it('lists at its root, in XML, the resources the key is granted and what it may do with each', async () => {
    const narrow = fake.createKey(SHOP, { orders: ['GET'], order_carriers: ['GET', 'PUT'] });
    const root = await ws('/', { key: narrow.key, json: false });
    expect(root.status).toBe(200);
    expect(root.text).toContain(
      `<orders xlink:href="${fake.url(SHOP)}/api/orders" get="true" put="false" post="false" patch="false" delete="false" head="false">`,
    );
    expect(root.text).toMatch(/<order_carriers xlink:href="[^"]*" get="true" put="true" post="false"/);
    expect(root.text).not.toContain('<order_histories');
    expect((await ws('/', { key: 'A'.repeat(32), json: false })).status).toBe(401);
  });

  it('limits a key to its resources and methods, and names unknown resources', async () => {
    const readOrders = fake.createKey(SHOP, { orders: ['GET'], order_carriers: ['GET'] });
    expect((await ws('/customers', { key: readOrders.key })).json.errors[0]).toMatchObject({ code: 26 });
    const put = await ws('/order_carriers/1', {
      method: 'PUT',
      key: readOrders.key,
      body: carrierXml({ id: 1 }),
    });
    expect(put).toMatchObject({ status: 405, json: { errors: [{ code: 25 }] } });
    const typo = await ws('/order');
    expect(typo.status).toBe(400);
    expect(typo.json.errors[0].message).toContain('Did you mean: "orders"');
  });
});

describe('reading orders', () => {
  const shop = 'lecture';
  let readKey: WebserviceKey;
  beforeAll(() => {
    fake.addShop(shop);
    readKey = fake.createKey(shop);
    for (let day = 1; day <= 5; day++) fake.createOrder(shop, { at: new Date(Date.UTC(2025, 2, day, 9)) });
  });

  it('filters on date_upd only with date=1, sorts and limits', async () => {
    const noDate = await ws(
      '/orders?display=full&filter[date_upd]=[2025-03-02 00:00:00,2025-03-04 23:59:59]',
      {
        key: readKey.key,
        shop,
      },
    );
    expect(noDate).toMatchObject({ status: 400, json: { errors: [{ code: 32 }] } });
    const query =
      '/orders?display=full&date=1&filter[date_upd]=[2025-03-02 00:00:00,2025-03-04 23:59:59]&sort=[date_upd_DESC]&limit=0,2';
    const page = await ws(query, { key: readKey.key, shop });
    expect(page.status).toBe(200);
    expect(page.json.orders.map((o: any) => o.date_upd)).toEqual([
      '2025-03-04 10:00:00',
      '2025-03-03 10:00:00',
    ]);
    const order = page.json.orders[0];
    expect(typeof order.id).toBe('number');
    expect(order).toMatchObject({ current_state: '2', id_carrier: expect.any(String), valid: '1' });
    expect(order.associations.order_rows[0]).toMatchObject({
      product_quantity: '2',
      product_reference: 'THE-VERT-01',
    });
    const next = await ws(query.replace('limit=0,2', 'limit=2,2'), { key: readKey.key, shop });
    expect(next.json.orders.map((o: any) => o.date_upd)).toEqual(['2025-03-02 10:00:00']);
    const none = await ws('/orders?date=1&filter[date_upd]=>[2030-01-01 00:00:00]', {
      key: readKey.key,
      shop,
    });
    expect(none.text).toBe('[]');
    const ids = await ws('/orders?limit=2', { key: readKey.key, shop });
    expect(ids.json.orders).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('serves the delivery address, the customer, the order carrier and the product weight', async () => {
    const order = (await ws('/orders/1', { key: readKey.key, shop })).json.order;
    const address = (await ws(`/addresses/${order.id_address_delivery}`, { key: readKey.key, shop })).json
      .address;
    expect(address).toMatchObject({
      postcode: '75011',
      city: 'Paris',
      id_country: '8',
      address1: '12 rue Oberkampf',
    });
    const country = (await ws('/countries/8', { key: readKey.key, shop })).json.country;
    expect(country).toMatchObject({ iso_code: 'FR', name: [{ id: '1', value: 'France' }] });
    const customer = (await ws(`/customers/${order.id_customer}`, { key: readKey.key, shop })).json.customer;
    expect(customer.email).toBe('claire.martin@example.fr');
    const carriers = await ws(`/order_carriers?display=full&filter[id_order]=${order.id}`, {
      key: readKey.key,
      shop,
    });
    expect(carriers.json.order_carriers).toHaveLength(1);
    expect(carriers.json.order_carriers[0]).toMatchObject({
      id_order: String(order.id),
      tracking_number: '',
    });
    const product = (
      await ws(`/products/${order.associations.order_rows[0].product_id}`, { key: readKey.key, shop })
    ).json;
    expect(product.product.weight).toBe('0.450000');
    const missing = await ws('/orders/999', { key: readKey.key, shop });
    expect(missing).toMatchObject({ status: 404, text: '' });
    // Chosen fields: a one-item list under the plural name, as PrestaShop 8 answers them.
    const chosen = await ws(`/orders/${order.id}?display=[id,current_state]`, { key: readKey.key, shop });
    expect(chosen.json).toEqual({ orders: [{ id: order.id, current_state: '2' }] });
    const xml = await ws('/addresses/1', { key: readKey.key, shop, json: false });
    expect(xml.text).toContain('<address><id><![CDATA[1]]></id>');
    expect(xml.text).toContain('<postcode><![CDATA[75011]]></postcode>');
  });
});

describe('writing statuses back', () => {
  it('PUT order_carriers takes the whole XML object; JSON bodies and partial PUTs are refused; PATCH patches', async () => {
    const order = fake.createOrder(SHOP);
    const row = (await ws(`/order_carriers?display=full&filter[id_order]=${order.id}`)).json
      .order_carriers[0];
    const json = await ws(`/order_carriers/${row.id}`, {
      method: 'PUT',
      body: JSON.stringify({ order_carrier: { ...row, tracking_number: 'X' } }),
    });
    expect(json).toMatchObject({ status: 500, json: { errors: [{ code: 127 }] } });
    expect(json.json.errors[0].message).toMatch(/^XML error : String could not be parsed as XML/);
    const partial = await ws(`/order_carriers/${row.id}`, {
      method: 'PUT',
      body: carrierXml({ id: row.id, tracking_number: 'DLV-1' }),
    });
    expect(partial).toMatchObject({
      status: 400,
      json: { errors: [{ code: 41, message: 'parameter "id_order" required' }] },
    });
    const { id: _id, ...rest } = row;
    const full = await ws(`/order_carriers/${row.id}`, {
      method: 'PUT',
      body: carrierXml({ id: row.id, ...rest, tracking_number: 'DLV-42' }),
    });
    expect(full).toMatchObject({
      status: 200,
      json: { order_carrier: { tracking_number: 'DLV-42', weight: row.weight } },
    });
    const lossy = await ws(`/order_carriers/${row.id}`, {
      method: 'PUT',
      body: carrierXml({
        id: row.id,
        id_order: row.id_order,
        id_carrier: row.id_carrier,
        tracking_number: 'DLV-43',
      }),
    });
    expect(lossy.json.order_carrier.weight).toBe(''); // PUT empties what it was not sent
    const patch = await ws(`/order_carriers/${row.id}`, {
      method: 'PATCH',
      body: carrierXml({ id: row.id, tracking_number: 'DLV-44' }),
    });
    expect(patch.json.order_carrier).toMatchObject({ tracking_number: 'DLV-44', id_order: row.id_order });
  });

  it('POST order_histories moves the order to the state and its date_upd forward', async () => {
    const order = fake.createOrder(SHOP, { at: new Date(Date.UTC(2024, 0, 1)) });
    const delivered = (await ws('/order_states?display=full&filter[delivery]=1&filter[shipped]=1')).json
      .order_states;
    expect(delivered.map((s: any) => s.name[0].value)).toContain('Livré');
    const body = `<prestashop><order_history><id_order>${order.id}</id_order><id_order_state>5</id_order_state></order_history></prestashop>`;
    const created = await ws('/order_histories', { method: 'POST', body });
    expect(created).toMatchObject({
      status: 201,
      json: { order_history: { id_order: String(order.id), id_order_state: '5' } },
    });
    const after = (await ws(`/orders/${order.id}`)).json.order;
    expect(after.current_state).toBe('5');
    expect(after.date_upd > '2024-01-01 01:00:00').toBe(true);
    // The state's e-mail goes to the customer only when the call asks for it (OrderHistory::addWs).
    expect(fake.shop(SHOP).mails.filter((m) => m.idOrder === order.id)).toEqual([]);
    const mailed = await ws('/order_histories?sendemail=1', { method: 'POST', body });
    expect(mailed.status).toBe(201);
    expect(fake.shop(SHOP).mails.filter((m) => m.idOrder === order.id)).toEqual([
      { idOrder: order.id, idOrderState: 5, to: 'claire.martin@example.fr' },
    ]);
    const withId = `<prestashop><order_history><id>3</id><id_order>${order.id}</id_order><id_order_state>5</id_order_state></order_history></prestashop>`;
    expect((await ws('/order_histories', { method: 'POST', body: withId })).json.errors[0].code).toBe(91);
  });
});

describe("the module's push", () => {
  it("is signed over the raw json_encode bytes and carries the contract's shape", async () => {
    const order = fake.createOrder(SHOP, { carrier: 'express' });
    const payload = fake.pushPayload(SHOP, order.id);
    const credentials = { connectionId: 'con_0123456789abcdef', secret: 'shop-secret' };
    const sent = await fake.pushOrder(receiver.url('/connectors/prestashop/orders'), credentials, payload);
    expect(sent.status).toBe(200);
    const hook = receiver.received.at(-1)!;
    // Signed over the time of sending and the body (no replays): `{timestamp}.{body}`.
    const timestamp = hook.headers['x-dlv-timestamp']!;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const expected = createHmac('sha256', 'shop-secret')
      .update(`${timestamp}.${hook.body}`, 'utf8')
      .digest('base64');
    expect(hook.headers['x-dlv-signature']).toBe(expected);
    expect(hook.headers['x-dlv-delivery-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(hook.headers['x-dlv-connection']).toBe('con_0123456789abcdef');
    expect(hook.headers['x-dlv-event']).toBeUndefined();
    expect(hook.body).toContain('\\/'); // shop_url as PHP writes it
    expect(hook.json).toMatchObject({
      event: 'order.paid',
      shop_url: fake.url(SHOP),
      order: {
        id: order.id,
        reference: order.reference,
        id_carrier: Number(order.id_carrier),
        carrier_service: 'express',
        current_state: 2,
        currency: 'EUR',
        customer: { email: 'claire.martin@example.fr' },
        delivery_address: {
          postcode: '75011',
          city: 'Paris',
          country_iso: 'FR',
          phone_mobile: '06 12 34 56 78',
        },
        products: [{ id_product: 1, quantity: 2, weight_kg: '0.450' }],
      },
    });
    const tampered = hook.body.replace('75011', '75012');
    expect(createHmac('sha256', 'shop-secret').update(`${timestamp}.${tampered}`).digest('base64')).not.toBe(
      expected,
    );
  });

  it("names no service for a carrier that is not the module's, and keeps a retry's delivery id", async () => {
    const order = fake.createOrder(SHOP, { carrier: 'other' });
    const payload = fake.pushPayload(SHOP, order.id, 'order.cancelled');
    expect(payload).toMatchObject({ event: 'order.cancelled', order: { carrier_service: null } });
    const credentials = { connectionId: 'con_0123456789abcdef', secret: 's' };
    const url = receiver.url('/connectors/prestashop/orders');
    const first = await fake.pushOrder(url, credentials, payload);
    const retry = await fake.pushOrder(url, credentials, payload, { deliveryId: first.deliveryId });
    expect(retry.headers['X-Dlv-Delivery-Id']).toBe(first.deliveryId);
  });
});
