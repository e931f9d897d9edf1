import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PICKUP_ADDRESS, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { type LiveApi, startLiveApi } from './support/live-api.ts';
import { VALID_ORDER } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import {
  deliveriesSettled,
  drained,
  eventually,
  type Receiver,
  startReceiver,
} from './support/webhook-receiver.ts';

// The app is CommonJS, as Zapier runs it: loaded with require, exactly as `zapier push` would.
const require = createRequire(import.meta.url);
const App = require('../connectors/zapier/index.js');
const { createAppTester } = require('zapier-platform-core');
const { prepareApp, validateApp } = require('zapier-platform-core/src/tools/schema');
const { idempotencyKeyFor } = require('../connectors/zapier/lib/idempotency.js');
const appTester = createAppTester(App);

let api: LiveApi;
let receiver: Receiver;
let brand: TestBrand;
let authData: { api_key: string; base_url: string };

beforeAll(async () => {
  api = await startLiveApi({ ownProcess: true });
  receiver = await startReceiver();
  brand = await api.brand({ name: 'Maison Zapier' });
  authData = { api_key: brand.key, base_url: api.base };
});
afterAll(async () => {
  await receiver?.close();
  await api?.close();
});

/** An order created through the API itself, as a shop would. */
async function placeOrder(body: object = VALID_ORDER) {
  const res = await fetch(`${api.base}/orders`, {
    method: 'POST',
    headers: { ...brand.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { trackingRef: string }).trackingRef;
}

async function subscriptionStatus(id: string) {
  const res = await fetch(`${api.base}/webhook-subscriptions/${id}`, { headers: brand.headers });
  return res.status;
}

/** Subscribes a trigger to a receiver path of its own; returns what Zapier would keep. */
async function subscribe(triggerKey: string) {
  const path = `/zap/${triggerKey}/${Date.now()}`;
  const subscribeData = await appTester(App.triggers[triggerKey].operation.performSubscribe, {
    authData,
    targetUrl: receiver.url(path),
    meta: { zap: { id: 4242 } },
  });
  const hooks = () => receiver.received.filter((r) => r.path === path);
  return {
    subscribeData,
    hooks,
    waitForHooks: (n: number) => eventually(async () => hooks().length >= n && hooks()),
  };
}

describe('Zapier app definition', () => {
  it('passes the schema check `zapier validate` runs', () => {
    expect(validateApp(prepareApp(App))).toEqual([]);
    // The check can fail: a trigger without its noun is refused.
    const { noun: _, ...withoutNoun } = App.triggers.new_order;
    const broken = { ...App, triggers: { ...App.triggers, new_order: withoutNoun } };
    expect(validateApp(prepareApp(broken)).map((e: { stack: string }) => e.stack)).toEqual([
      'instance.triggers.new_order requires property "noun"',
    ]);
  });

  it('defaults to the production API', () => {
    const field = App.authentication.fields.find((f: { key: string }) => f.key === 'base_url');
    expect(field.default).toBe('https://api.livraison-dlv.fr/public/v1');
  });
});

describe('authentication', () => {
  it('tests the key with GET /me and labels the connection with the brand', async () => {
    const me = await appTester(App.authentication.test, { authData });
    expect(me.brand).toMatchObject({ id: brand.brandId, name: 'Maison Zapier' });
    const label = await appTester(App.authentication.connectionLabel, { authData, inputData: me });
    expect(label).toBe('Maison Zapier');
  });

  it('reports a bad key as an expired connection, with the API message', async () => {
    const bad = { ...authData, api_key: `dlv_${'0'.repeat(64)}` };
    await expect(appTester(App.authentication.test, { authData: bad })).rejects.toMatchObject({
      name: 'ExpiredAuthError',
      message: expect.stringMatching(/unknown or has been revoked.*Reconnect/),
    });
  });
});

describe('instant triggers', () => {
  it('New Order: subscribes, receives order.created, and stops after unsubscribing', async () => {
    const { subscribeData, hooks, waitForHooks } = await subscribe('new_order');
    expect(subscribeData.id).toMatch(/^whk_/);
    expect(subscribeData).not.toHaveProperty('secret');
    expect(await subscriptionStatus(subscribeData.id)).toBe(200);

    const ref = await placeOrder();
    const [hook] = await waitForHooks(1);
    const records = await appTester(App.triggers.new_order.operation.perform, {
      authData,
      cleanedRequest: hook!.json,
    });
    expect(records).toEqual([expect.objectContaining({ id: ref, tracking_ref: ref, status: 'pending' })]);

    // A sample from performList has the same fields as a delivered record.
    const samples = await appTester(App.triggers.new_order.operation.performList, { authData });
    expect(samples[0]).toMatchObject({ id: ref, tracking_ref: ref });
    expect(Object.keys(samples[0]).sort()).toEqual(Object.keys(records[0]).sort());

    await appTester(App.triggers.new_order.operation.performUnsubscribe, { authData, subscribeData });
    expect(await subscriptionStatus(subscribeData.id)).not.toBe(200);
    await placeOrder();
    await drained(api.t.pool, 'webhooks_fan_out');
    await deliveriesSettled(api.t.pool);
    expect(hooks()).toHaveLength(1);
    // Unsubscribing twice (Zapier retries) is not an error.
    await appTester(App.triggers.new_order.operation.performUnsubscribe, { authData, subscribeData });
  });

  it('Order Status Changed and Order Delivered: one record per change, with the previous status', async () => {
    const changes = await subscribe('order_status_changed');
    const delivered = await subscribe('order_delivered');
    const ref = await placeOrder();
    for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered']) {
      await api.t.deps.orders.setStatus(ref, status, null, testOperator);
    }
    const received = await changes.waitForHooks(4);
    const records = (
      await Promise.all(
        received.map((h) =>
          appTester(App.triggers.order_status_changed.operation.perform, {
            authData,
            cleanedRequest: h.json,
          }),
        ),
      )
    ).flat();
    expect(records.map((r: any) => `${r.previous_status}>${r.status}`).sort()).toEqual([
      'in_transit>out_for_delivery',
      'out_for_delivery>delivered',
      'pending>picked_up',
      'picked_up>in_transit',
    ]);
    expect(new Set(records.map((r: any) => r.id)).size).toBe(4);

    const [hook] = await delivered.waitForHooks(1);
    const done = await appTester(App.triggers.order_delivered.operation.perform, {
      authData,
      cleanedRequest: hook!.json,
    });
    expect(done).toEqual([expect.objectContaining({ id: ref, status: 'delivered' })]);
    const samples = await appTester(App.triggers.order_delivered.operation.performList, { authData });
    expect(samples.map((o: any) => o.status)).toEqual(['delivered']);
    // A delivery of another event type (a misrouted hook) triggers nothing.
    const none = await appTester(App.triggers.order_delivered.operation.perform, {
      authData,
      cleanedRequest: received[0]!.json,
    });
    expect(none).toEqual([]);

    for (const { subscribeData } of [changes, delivered]) {
      await appTester(App.triggers.order_status_changed.operation.performUnsubscribe, {
        authData,
        subscribeData,
      });
    }
  });

  it('Invoice Issued: receives the invoice when last month is issued', async () => {
    const { subscribeData, waitForHooks } = await subscribe('invoice_issued');
    const lastMonth = new Date();
    lastMonth.setUTCDate(15);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    // An order of last month, made as the API would have then (the child process keeps real time).
    api.shiftClock(lastMonth.getTime() - Date.now());
    try {
      await api.t.deps.orders.create(
        { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        VALID_ORDER,
      );
    } finally {
      api.shiftClock(0);
    }
    // The operator issues last month's invoices (the job does it on the 1st).
    const issued = await runDlv(['invoices', 'issue', '--month', lastMonth.toISOString().slice(0, 7)], {
      DATABASE_URL: api.databaseUrl,
    });
    expect(issued.stdout).toMatch(/Issued 1 invoice/);
    const [hook] = await waitForHooks(1);
    const records = await appTester(App.triggers.invoice_issued.operation.perform, {
      authData,
      cleanedRequest: hook!.json,
    });
    expect(records).toEqual([
      expect.objectContaining({ id: expect.stringMatching(/^inv_/), status: 'issued' }),
    ]);
    const samples = await appTester(App.triggers.invoice_issued.operation.performList, { authData });
    expect(samples).toEqual([expect.objectContaining({ id: records[0].id, number: records[0].number })]);
    await appTester(App.triggers.invoice_issued.operation.performUnsubscribe, { authData, subscribeData });
  });

  it('tells a brand the operator has not opened webhooks to how to request access', async () => {
    const closed = await api.brand({ webhooksAllowed: false, scopes: ['orders:read'] });
    const err = await appTester(App.triggers.new_order.operation.performSubscribe, {
      authData: { ...authData, api_key: closed.key },
      targetUrl: receiver.url('/closed'),
    }).catch((e: Error) => e);
    expect(JSON.parse((err as Error).message)).toMatchObject({
      code: 'webhooks_not_enabled',
      status: 403,
      message: expect.stringMatching(/Request access/),
    });
  });

  it('explains a refused subscription with the API message', async () => {
    await expect(
      appTester(App.triggers.new_order.operation.performSubscribe, { authData, targetUrl: 'not a url' }),
    ).rejects.toThrow(/invalid_request/);
  });
});

describe('Create Delivery Order', () => {
  const input = { ...VALID_ORDER, reference: 'ZAP-1', service: 'express', quantity: 2, unit_weight: '' };

  it('creates the order, and a retried step returns the same order instead of a second one', async () => {
    const first = await appTester(App.creates.create_order.operation.perform, { authData, inputData: input });
    expect(first).toMatchObject({
      id: first.tracking_ref,
      reference: 'ZAP-1',
      service: 'express',
      quantity: 2,
    });
    const retried = await appTester(App.creates.create_order.operation.perform, {
      authData,
      inputData: Object.fromEntries(Object.entries(input).reverse()), // same fields, listed in another order
    });
    expect(retried.tracking_ref).toBe(first.tracking_ref);
    const other = await appTester(App.creates.create_order.operation.perform, {
      authData,
      inputData: { ...input, reference: 'ZAP-2' },
    });
    expect(other.tracking_ref).not.toBe(first.tracking_ref);
  });

  it('derives the key from the sorted, filled fields only', () => {
    expect(idempotencyKeyFor({ a: 1, b: 'x' })).toBe(idempotencyKeyFor({ b: 'x', a: 1 }));
    expect(idempotencyKeyFor({ a: 1 })).not.toBe(idempotencyKeyFor({ a: 2 }));
    expect(idempotencyKeyFor({ a: 1 })).toMatch(/^zapier-[0-9a-f]{64}$/);
  });

  it('uses the idempotency key given in the step instead', async () => {
    const inputData = { ...input, reference: 'ZAP-3', idempotency_key: `zap-key-${Date.now()}` };
    const first = await appTester(App.creates.create_order.operation.perform, { authData, inputData });
    // Same explicit key, other body: the API refuses rather than guess.
    await expect(
      appTester(App.creates.create_order.operation.perform, {
        authData,
        inputData: { ...inputData, reference: 'ZAP-4' },
      }),
    ).rejects.toThrow(/idempotency_key_reused/);
    expect(first.reference).toBe('ZAP-3');
  });

  it('turns an API refusal into an error naming the problem', async () => {
    const err = await appTester(App.creates.create_order.operation.perform, {
      authData,
      inputData: { ...input, delivery_address: '1 place Bellecour 69002 Lyon' },
    }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    const parsed = JSON.parse((err as Error).message);
    expect(parsed).toMatchObject({ code: 'out_of_zone', status: 422 });
    expect(parsed.message).toMatch(/delivery_address/);
  });

  it('reports a key without orders:write as forbidden', async () => {
    const readOnly = await api.brand({ scopes: ['orders:read'] });
    await expect(
      appTester(App.creates.create_order.operation.perform, {
        authData: { ...authData, api_key: readOnly.key },
        inputData: input,
      }),
    ).rejects.toThrow(/insufficient_scope.*orders:write|orders:write.*insufficient_scope/);
  });
});

describe('Get Delivery Rates', () => {
  it('returns the services cheapest first, and says when a destination is not served', async () => {
    const rates = await appTester(App.creates.get_rates.operation.perform, {
      authData,
      inputData: { delivery_zip: '75011', quantity: 2, unit_type: '' },
    });
    expect(rates.available).toBe(true);
    expect(rates.reason).toBeNull();
    expect(rates.rates.length).toBeGreaterThan(0);
    expect(rates.cheapest).toEqual(rates.rates[0]);
    const lyon = await appTester(App.creates.get_rates.operation.perform, {
      authData,
      inputData: { delivery_zip: '69002' },
    });
    expect(lyon).toEqual({ available: false, reason: 'out_of_zone', rates: [], cheapest: null });
  });
});

describe('Find Order by Tracking Reference', () => {
  it('finds an order with its history, and finds nothing for an unknown or foreign reference', async () => {
    const ref = await placeOrder();
    const found = await appTester(App.searches.find_order.operation.perform, {
      authData,
      inputData: { tracking_ref: ref.toLowerCase() },
    });
    expect(found).toEqual([
      expect.objectContaining({ id: ref, tracking_ref: ref, events: expect.any(Array) }),
    ]);
    const other = await api.brand();
    const foreign = await appTester(App.searches.find_order.operation.perform, {
      authData: { ...authData, api_key: other.key },
      inputData: { tracking_ref: ref },
    });
    expect(foreign).toEqual([]);
  });
});
