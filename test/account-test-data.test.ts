import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../src/domain/api-keys/keys.ts';
import { fanOutWebhookEvent } from '../src/jobs/webhooks-fan-out.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';

// A public address literal: passes the SSRF guard without DNS (nothing is sent to it here).
const PUBLIC_URL = 'https://93.184.216.34/hooks/orders';

/** The account area's test-data switch, its banner, and "delete all test data". */
let t: TestApp;
let ip = 0;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const refsIn = (body: string) => [...body.matchAll(/<code>(DLV-[0-9A-Z]{10})<\/code>/g)].map((m) => m[1]);

/** A live brand with a live order and endpoint, and test data: a test order and a test endpoint with a delivery. */
async function brandWithBothData() {
  const live = await createBrandWithKey(t.deps);
  const key = await t.deps.apiKeys.create(
    { brandId: live.brandId, scopes: [...SCOPES], test: true },
    testOperator,
  );
  const test: TestBrand = {
    brandId: key.brandId,
    key: key.key,
    keyId: key.id,
    headers: { authorization: `Bearer ${key.key}` },
  };
  const endpoints = [];
  for (const brand of [live, test]) {
    endpoints.push(
      (await t.deps.webhooks.add({ brandId: brand.brandId, url: PUBLIC_URL }, testOperator)).endpoint,
    );
    expect((await createOrder(t.app, brand)).statusCode).toBe(200);
    const { rows } = await t.pool.query('SELECT id FROM outbox_events WHERE brand_id = $1', [brand.brandId]);
    await fanOutWebhookEvent(t.deps, rows[0].id);
  }
  const refOf = async (brandId: string) =>
    (await t.pool.query('SELECT tracking_ref FROM orders WHERE brand_id = $1', [brandId])).rows[0]
      .tracking_ref;
  return {
    live,
    test,
    liveRef: (await refOf(live.brandId)) as string,
    testRef: (await refOf(test.brandId)) as string,
    liveEndpoint: endpoints[0]!,
    testEndpoint: endpoints[1]!,
  };
}

async function signedIn(brandId: string, role: 'owner' | 'developer' | 'finance' = 'owner') {
  const user = await createUser(t.deps, { brandId, role });
  const b = new Browser(t.app, `10.40.0.${++ip}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return b;
}

const counts = async (brandId: string) =>
  (
    await t.pool.query(
      `SELECT (SELECT count(*)::int FROM orders WHERE brand_id = $1) AS orders,
              (SELECT count(*)::int FROM webhook_endpoints WHERE brand_id = $1) AS endpoints,
              (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
                WHERE e.brand_id = $1) AS deliveries`,
      [brandId],
    )
  ).rows[0];

describe('the account area in test mode', () => {
  it('switches the orders, keys and webhooks pages to test data, with a banner, keeping the mode in links', async () => {
    const data = await brandWithBothData();
    const b = await signedIn(data.live.brandId);

    const liveOrders = await b.get('/account/orders');
    expect(refsIn(liveOrders.body)).toEqual([data.liveRef]);
    expect(liveOrders.body).not.toContain('test-banner');
    expect(liveOrders.body).toContain('href="/account/orders?mode=test"');

    const testOrders = await b.get('/account/orders?mode=test');
    expect(testOrders.status).toBe(200);
    expect(refsIn(testOrders.body)).toEqual([data.testRef]);
    expect(testOrders.body).toContain('class="test-banner" role="note"');
    expect(testOrders.body).toContain(`href="/account/orders/${data.testRef}?mode=test"`);
    expect(testOrders.body).toContain('<input type="hidden" name="mode" value="test">');
    expect(testOrders.body).toContain('href="/account/keys?mode=test"');
    expect(testOrders.body).toContain('href="/account/webhooks?mode=test"');

    // An order's page: the test order among test data only.
    expect((await b.get(`/account/orders/${data.testRef}?mode=test`)).status).toBe(200);
    expect((await b.get(`/account/orders/${data.testRef}`)).status).toBe(404);
    expect((await b.get(`/account/orders/${data.liveRef}?mode=test`)).status).toBe(404);

    const liveKeys = await b.get('/account/keys');
    expect(liveKeys.body).toContain(data.live.key.slice(0, 12));
    // The keys' table rows (the history below lists every key event, live and test).
    const keyRows = (body: string) =>
      [...body.matchAll(/<td data-label="Key"><code>(dlv_[^…]+)…/g)].map((m) => m[1]);
    expect(keyRows(liveKeys.body)).toEqual([data.live.key.slice(0, 4 + 8)]);
    const testKeys = await b.get('/account/keys?mode=test');
    expect(keyRows(testKeys.body)).toEqual([data.test.key.slice(0, 9 + 8)]);
    // A key made from the test view is a test key unless the box is unticked.
    expect(testKeys.body).toContain('name="test" value="1" checked');
    expect(testKeys.body).toContain('test-banner');

    const liveHooks = await b.get('/account/webhooks');
    expect(liveHooks.body).toContain(data.liveEndpoint.id);
    expect(liveHooks.body).not.toContain(data.testEndpoint.id);
    const testHooks = await b.get('/account/webhooks?mode=test');
    expect(testHooks.body).toContain(data.testEndpoint.id);
    expect(testHooks.body).not.toContain(data.liveEndpoint.id);
    expect(testHooks.body).toContain('href="/account/test-data/delete?mode=test"');

    // In French too.
    const fr = await b.get('/account/orders?mode=test&lang=fr');
    expect(fr.body).toContain('Vous consultez les données de test');
  });

  it('deletes all test data after a confirmation, in one audited transaction, leaving live data untouched', async () => {
    const data = await brandWithBothData();
    const b = await signedIn(data.live.brandId);
    const liveBefore = await counts(data.live.brandId);
    expect(liveBefore).toEqual({ orders: 1, endpoints: 1, deliveries: 1 });
    expect(await counts(data.test.brandId)).toEqual({ orders: 1, endpoints: 1, deliveries: 1 });

    // The confirmation step first; a POST without the form's token is refused and deletes nothing.
    const confirm = await b.get('/account/test-data/delete?mode=test');
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('Delete all test data?');
    expect(confirm.body).toContain('action="/account/test-data/delete?mode=test"');
    expect((await b.post('/account/test-data/delete', { _csrf: 'forged' })).status).toBe(403);
    expect(await counts(data.test.brandId)).toEqual({ orders: 1, endpoints: 1, deliveries: 1 });

    const done = await b.post('/account/test-data/delete?mode=test', { _csrf: csrfOf(confirm.body) });
    expect(done.status).toBe(200);
    expect(done.body).toContain('Test data deleted: 1 orders, 1 webhook endpoints, 1 webhook deliveries.');
    expect(await counts(data.test.brandId)).toEqual({ orders: 0, endpoints: 0, deliveries: 0 });
    expect(await counts(data.live.brandId)).toEqual(liveBefore);
    expect(refsIn((await b.get('/account/orders')).body)).toEqual([data.liveRef]);
    expect(refsIn((await b.get('/account/orders?mode=test')).body)).toEqual([]);

    // The twin stays (brands are never deleted) and its test key still creates orders.
    expect((await createOrder(t.app, data.test)).statusCode).toBe(200);

    const { rows } = await t.pool.query(
      `SELECT actor_kind, details FROM audit_events WHERE action = 'test_data.deleted' AND brand_id = $1`,
      [data.live.brandId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].details).toMatchObject({ orders: 1, webhook_endpoints: 1, webhook_deliveries: 1 });
  });

  it('lets finance people look at test data but not delete it', async () => {
    const data = await brandWithBothData();
    const b = await signedIn(data.live.brandId, 'finance');
    const page = await b.get('/account/orders?mode=test');
    expect(refsIn(page.body)).toEqual([data.testRef]);
    expect(page.body).not.toContain('/account/test-data/delete');
    const refused = await b.get('/account/test-data/delete?mode=test');
    expect(refused.status).toBe(403);
    expect((await b.post('/account/test-data/delete?mode=test', { _csrf: csrfOf(page.body) })).status).toBe(
      403,
    );
    expect(await counts(data.test.brandId)).toEqual({ orders: 1, endpoints: 1, deliveries: 1 });
  });
});
