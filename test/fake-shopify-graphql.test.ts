import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeShopify, startFakeShopify } from './support/fake-shopify.ts';
import {
  adminGraphql,
  installApp,
  MUTATIONS,
  TEST_API_KEY,
  TEST_API_SECRET,
} from './support/shopify-client.ts';
import { type Receiver, sleep, startReceiver } from './support/webhook-receiver.ts';

// The fake's Admin GraphQL API: authentication, versions, input coercion errors, userErrors,
// cost and throttling, outage modes, and the carrier-service rate request.

const SHOP = 'acme.myshopify.com';
let fake: FakeShopify;
let receiver: Receiver;
let token: string;

const gql = (query: string, variables: Record<string, unknown> = {}, version?: string) =>
  adminGraphql(fake, SHOP, token, query, variables, version);

beforeAll(async () => {
  receiver = await startReceiver((hook) =>
    hook.path === '/rates'
      ? {
          status: 200,
          body: JSON.stringify({
            rates: [{ service_name: 'Coursier', service_code: 'std', total_price: '1290', currency: 'EUR' }],
          }),
        }
      : { status: 200 },
  );
  fake = await startFakeShopify({ apiKey: TEST_API_KEY, apiSecret: TEST_API_SECRET });
  fake.addShop(SHOP);
  token = await installApp(fake, SHOP);
});

afterAll(async () => {
  await fake.close();
  await receiver.close();
});

describe('access and versions', () => {
  it('answers 401 with Shopify’s body without a valid token, 404 for an unsupported version', async () => {
    const expected = {
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    };
    for (const bad of [null, 'shpat_00000000000000000000000000000000']) {
      const answer = await adminGraphql(fake, SHOP, bad, MUTATIONS.order, { id: 'gid://shopify/Order/1' });
      expect(answer).toMatchObject({ status: 401, json: expected });
    }
    expect((await gql(MUTATIONS.order, { id: 'gid://shopify/Order/1' }, '2019-04')).status).toBe(404);
    expect((await gql(MUTATIONS.order, { id: 'gid://shopify/Order/1' }, '2025-10')).json).toMatchObject({
      data: { order: null },
    });
  });

  it('reports the cost of each call against the standard bucket, and logs what was sent', async () => {
    const { json } = await gql(MUTATIONS.carrierService, {
      input: {
        name: 'Livraison Paris',
        callbackUrl: receiver.url('/rates'),
        active: true,
        supportsServiceDiscovery: true,
      },
    });
    expect(json.data.carrierServiceCreate).toMatchObject({
      carrierService: {
        id: expect.stringMatching(/^gid:\/\/shopify\/DeliveryCarrierService\/\d+$/),
        active: true,
      },
      userErrors: [],
    });
    expect(json.extensions.cost).toMatchObject({
      requestedQueryCost: 10,
      actualQueryCost: 10,
      throttleStatus: { maximumAvailable: 2000, restoreRate: 100 },
    });
    expect(json.extensions.cost.throttleStatus.currentlyAvailable).toBeLessThanOrEqual(1990);
    expect(fake.shop(SHOP).calls.at(-1)).toMatchObject({
      operation: 'carrierServiceCreate',
      outcome: 'ok',
      variables: { input: { name: 'Livraison Paris' } },
    });
  });
});

describe('input coercion, as Shopify reports it (top-level errors, no data)', () => {
  it('rejects an unknown FulfillmentEventStatus with the variable, its location and the problem', async () => {
    const { status, json } = await gql(MUTATIONS.event, {
      event: { fulfillmentId: 'gid://shopify/Fulfillment/1', status: 'LOST_IN_SPACE' },
    });
    expect(status).toBe(200);
    expect(json.data).toBeUndefined();
    const [error] = json.errors;
    expect(error.message).toMatch(
      /^Variable \$event of type FulfillmentEventInput! was provided invalid value for status \(Expected "LOST_IN_SPACE" to be one of: ATTEMPTED_DELIVERY, CARRIER_PICKED_UP, /,
    );
    expect(error.locations).toEqual([{ line: 1, column: 16 }]);
    expect(error.extensions.problems).toEqual([
      { path: ['status'], explanation: expect.stringContaining('to be one of') },
    ]);
  });

  it('rejects missing non-null fields, unknown fields, bad ids and mismatched variable types', async () => {
    const missing = await gql(MUTATIONS.carrierService, {
      input: { name: 'X', callbackUrl: receiver.url('/r') },
    });
    expect(missing.json.errors[0].extensions.problems).toEqual([
      { path: ['active'], explanation: 'Expected value to not be null' },
      { path: ['supportsServiceDiscovery'], explanation: 'Expected value to not be null' },
    ]);
    const unknown = await gql(MUTATIONS.fulfill, {
      fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: '42' }], tracking: {} },
    });
    expect(unknown.json.errors[0].extensions.problems).toEqual([
      { path: ['tracking'], explanation: 'Field is not defined on FulfillmentInput' },
      {
        path: ['lineItemsByFulfillmentOrder', 0, 'fulfillmentOrderId'],
        explanation: 'Invalid global id `42`',
      },
    ]);
    const mismatch = await gql(MUTATIONS.fulfill.replace('FulfillmentInput!', 'FulfillmentV2Input!'), {});
    expect(mismatch.json.errors[0]).toMatchObject({ extensions: { code: 'variableMismatch' } });
    const topic = await gql(MUTATIONS.subscribe, {
      topic: 'orders/paid',
      sub: { callbackUrl: receiver.url('/h') },
    });
    expect(topic.json.errors[0].extensions.problems[0].explanation).toContain(
      'Expected "orders/paid" to be one of',
    );
  });
});

describe('webhook subscription addresses by version', () => {
  it('takes `uri` from 2025-10 (and the deprecated `callbackUrl`), and refuses `uri` before it', async () => {
    const uri = receiver.url('/by-uri');
    const current = await gql(MUTATIONS.subscribe, { topic: 'ORDERS_CANCELLED', sub: { uri } }, '2025-10');
    expect(current.json.data.webhookSubscriptionCreate).toMatchObject({
      webhookSubscription: { topic: 'ORDERS_CANCELLED', uri },
      userErrors: [],
    });
    expect(fake.shop(SHOP).webhookSubscriptions.at(-1)).toMatchObject({ uri, addressField: 'uri' });
    const deprecated = await gql(
      MUTATIONS.subscribe,
      { topic: 'ORDERS_CANCELLED', sub: { callbackUrl: receiver.url('/by-callback') } },
      '2025-10',
    );
    expect(deprecated.json.data.webhookSubscriptionCreate.userErrors).toEqual([]);
    const older = await gql(
      MUTATIONS.subscribe,
      { topic: 'ORDERS_CANCELLED', sub: { uri: receiver.url('/older') } },
      '2025-07',
    );
    expect(older.json.data).toBeUndefined();
    expect(older.json.errors[0].extensions.problems).toEqual([
      { path: ['uri'], explanation: 'Field is not defined on WebhookSubscriptionInput' },
    ]);
  });
});

describe('userErrors', () => {
  it('refuses a second subscription of one address to one topic', async () => {
    const variables = { topic: 'ORDERS_PAID', sub: { callbackUrl: receiver.url('/paid'), format: 'JSON' } };
    expect(
      (await gql(MUTATIONS.subscribe, variables)).json.data.webhookSubscriptionCreate.userErrors,
    ).toEqual([]);
    expect((await gql(MUTATIONS.subscribe, variables)).json.data.webhookSubscriptionCreate).toEqual({
      webhookSubscription: null,
      userErrors: [
        {
          field: ['webhookSubscription', 'callbackUrl'],
          message: 'Address for this topic has already been taken',
        },
      ],
    });
    expect(fake.shop(SHOP).webhookSubscriptions.filter((s) => s.topic === 'ORDERS_PAID')).toHaveLength(1);
  });

  it('fulfils an open fulfillment order once; unknown orders and fulfillments are userErrors', async () => {
    const order = fake.newOrder(SHOP);
    const foId = order.order.fulfillmentOrders[0]!.id;
    const fulfillment = (fulfillmentOrderId: string) => ({
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId }],
        trackingInfo: { company: 'Delivery Orders', number: 'DLV-1', url: 'https://track.example/DLV-1' },
        notifyCustomer: true,
      },
    });
    const unknown = await gql(MUTATIONS.fulfill, fulfillment('gid://shopify/FulfillmentOrder/1'));
    expect(unknown.json.data.fulfillmentCreate).toEqual({
      fulfillment: null,
      userErrors: [{ field: ['fulfillment'], message: 'Fulfillment order does not exist.' }],
    });
    const created = (await gql(MUTATIONS.fulfill, fulfillment(foId))).json.data.fulfillmentCreate;
    expect(created).toMatchObject({ fulfillment: { status: 'SUCCESS' }, userErrors: [] });
    expect(fake.shop(SHOP).fulfillments.at(-1)).toMatchObject({
      trackingInfo: [{ number: 'DLV-1', url: 'https://track.example/DLV-1' }],
      notifyCustomer: true,
    });
    const after = (await gql(MUTATIONS.order, { id: order.gid })).json.data.order;
    expect(after.fulfillmentOrders.nodes[0].status).toBe('CLOSED');
    // Order.fulfillments: a plain list (no connection), each with its FulfillmentTrackingInfo list.
    expect(after.fulfillments).toEqual([
      {
        id: created.fulfillment.id,
        name: expect.any(String),
        status: 'SUCCESS',
        trackingInfo: [{ company: 'Delivery Orders', number: 'DLV-1', url: 'https://track.example/DLV-1' }],
        createdAt: expect.any(String),
      },
    ]);
    const twice = (await gql(MUTATIONS.fulfill, fulfillment(foId))).json.data.fulfillmentCreate;
    expect(twice.fulfillment).toBeNull();
    expect(twice.userErrors[0].message).toBe(
      `Fulfillment order ${foId.split('/').at(-1)} has an unfulfillable status= closed.`,
    );

    const event = {
      fulfillmentId: created.fulfillment.id,
      status: 'OUT_FOR_DELIVERY',
      happenedAt: '2025-11-03T09:30:00+01:00',
    };
    const ok = (await gql(MUTATIONS.event, { event })).json.data.fulfillmentEventCreate;
    expect(ok).toMatchObject({ fulfillmentEvent: { status: 'OUT_FOR_DELIVERY' }, userErrors: [] });
    const orphan = await gql(MUTATIONS.event, {
      event: { ...event, fulfillmentId: 'gid://shopify/Fulfillment/7' },
    });
    expect(orphan.json.data.fulfillmentEventCreate).toEqual({
      fulfillmentEvent: null,
      userErrors: [{ field: ['fulfillmentEvent', 'fulfillmentId'], message: 'Fulfillment does not exist.' }],
    });
  });
});

describe('throttling and outages', () => {
  it('answers THROTTLED once the bucket is empty, and serves again after the restore time', async () => {
    const small = await startFakeShopify({
      apiKey: TEST_API_KEY,
      apiSecret: TEST_API_SECRET,
      throttle: { maximumAvailable: 30, restoreRate: 20 },
    });
    try {
      small.addShop(SHOP);
      const smallToken = await installApp(small, SHOP);
      const call = (n: number) =>
        adminGraphql(small, SHOP, smallToken, MUTATIONS.subscribe, {
          topic: 'ORDERS_PAID',
          sub: { callbackUrl: `https://hooks.example/${n}` },
        });
      for (const n of [1, 2, 3])
        expect((await call(n)).json.data.webhookSubscriptionCreate.userErrors).toEqual([]);
      const throttled = await call(4);
      expect(throttled.status).toBe(200);
      expect(throttled.json.errors).toEqual([
        {
          message: 'Throttled',
          extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
        },
      ]);
      expect(throttled.json.extensions.cost).toMatchObject({ requestedQueryCost: 10, actualQueryCost: null });
      expect(throttled.json.extensions.cost.throttleStatus.currentlyAvailable).toBeLessThan(10);
      expect(small.shop(SHOP).webhookSubscriptions).toHaveLength(3); // nothing done
      await sleep(600); // 20 points/s: 10 points in 500 ms
      expect((await call(4)).json.data.webhookSubscriptionCreate.userErrors).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('can be switched to throttled, down (503) and rate-limited (429 with Retry-After)', async () => {
    const probe = () => gql(MUTATIONS.order, { id: 'gid://shopify/Order/1' });
    try {
      fake.setMode('throttled');
      expect((await probe()).json.errors[0].extensions.code).toBe('THROTTLED');
      fake.setMode('down');
      expect((await probe()).status).toBe(503);
      fake.setMode('rate-limited');
      const limited = await probe();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('2.0');
    } finally {
      fake.setMode('up');
    }
    expect((await probe()).status).toBe(200);
    expect(
      fake
        .shop(SHOP)
        .calls.slice(-4)
        .map((c) => c.outcome),
    ).toEqual(['throttled', 'down', 'rate-limited', 'ok']);
  });
});

describe('carrier-service rate requests', () => {
  it('posts the rate request for a Paris address, signed with the app secret', async () => {
    const answer = await fake.requestRates(SHOP);
    expect(answer.status).toBe(200);
    expect(answer.json.rates[0]).toMatchObject({ total_price: '1290', currency: 'EUR' });
    const hook = receiver.received.findLast((h) => h.path === '/rates')!;
    const signature = createHmac('sha256', TEST_API_SECRET).update(hook.body).digest('base64');
    expect(hook.headers['x-shopify-hmac-sha256']).toBe(signature);
    expect(hook.headers['x-shopify-shop-domain']).toBe(SHOP);
    expect(hook.json.rate).toMatchObject({
      destination: { country: 'FR', postal_code: '75011', city: 'Paris' },
      currency: 'EUR',
    });
  });
});
