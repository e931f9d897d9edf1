import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { generateTrackingRef } from '../src/domain/orders/tracking-ref.ts';
import { pickupIdFor } from '../src/domain/pickups/pickup-day.ts';
import type { RouteAuthInfo } from '../src/http/shared/plugins/auth.ts';
import {
  API,
  buildTestApp,
  call,
  createBrandWithKey,
  TEST_PICKUP_ADDRESS,
  type TestApp,
  type TestBrand,
} from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

/**
 * Tenant isolation, driven by the route catalog (a new route joins automatically): brand B, with a
 * key holding every scope, calls every brand-scoped route that takes an object id with brand A's
 * objects. Each answer must be exactly the 404 an id that exists nowhere gets (never 403, nothing
 * that tells "exists, but not yours"), and A's objects must be unchanged afterwards. Lists seen by
 * B must contain nothing of A's.
 */

// Issuing a month concerns every brand of a database: this file has a database of its own.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let now = new Date('2026-09-10T08:00:00Z');

let a: TestBrand;
let b: TestBrand;

/** A's objects, by the path parameter that names them: each route is tried with every one. */
const fixtures: Record<string, { label: string; id: string }[]> = {};

/** Well-formed ids that exist for nobody, by path parameter: the reference 404. */
const nowhere: Record<string, () => string> = {
  trackingRef: () => generateTrackingRef(),
  id: () => `inv_${'0'.repeat(15)}1`,
  subscriptionId: () => `whk_${'0'.repeat(15)}1`,
  pickupId: () => `pck_${'0'.repeat(15)}1`,
};

/** A valid body for write routes, so validation never answers before the ownership check. */
const BODIES: Record<string, unknown> = {
  'PATCH /public/v1/orders/:trackingRef': { reference: 'HIJACKED', delivery_recipient: 'Mallory' },
  'POST /public/v1/orders/:trackingRef/cancel': undefined,
  'DELETE /public/v1/webhook-subscriptions/:subscriptionId': undefined,
};

const paramsOf = (url: string) => [...url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);

/** Routes a brand's key opens (not public ones, not the operator's, which sees every brand). */
function brandRoutes(): RouteAuthInfo[] {
  // Account pages (a session, not a key) have their cross-brand checks in test/account-security.test.ts;
  // couriers' routes (a courier session, no brand at all) theirs in test/security.test.ts.
  // Simulation is for test keys only: these live keys get 403 test_mode_only before any lookup,
  // for any reference (nothing revealed); test keys' isolation is in test/test-mode.test.ts.
  return t.app.routeCatalog.filter(
    (r) =>
      r.auth !== 'none' &&
      r.auth !== 'ops' &&
      r.auth !== 'session' &&
      r.auth !== 'courier' &&
      r.auth !== 'console' &&
      r.url !== `${API}/orders/:trackingRef/simulate`,
  );
}

function request(route: RouteAuthInfo, brand: TestBrand, values: Record<string, string>) {
  const url = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(values[name]!));
  const key = `${route.method} ${route.url}`;
  const payload = route.method === 'GET' ? undefined : BODIES[key];
  return call(t.app, {
    method: route.method as 'GET',
    url,
    headers: {
      ...brand.headers,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  });
}

/** A's view of its own objects: what must not change whatever B sends. */
async function snapshotOfA() {
  const snapshot: Record<string, unknown> = {};
  for (const { id } of fixtures.trackingRef ?? []) {
    snapshot[id] = (
      await call(t.app, { method: 'GET', url: `${API}/orders/${id}`, headers: a.headers })
    ).data;
  }
  for (const { id } of fixtures.id ?? []) {
    snapshot[id] = (
      await call(t.app, { method: 'GET', url: `${API}/invoices/${id}`, headers: a.headers })
    ).data;
  }
  for (const { id } of fixtures.pickupId ?? []) {
    snapshot[id] = (
      await call(t.app, { method: 'GET', url: `${API}/pickups/${id}`, headers: a.headers })
    ).data;
  }
  for (const { id } of fixtures.subscriptionId ?? []) {
    snapshot[id] = (
      await call(t.app, { method: 'GET', url: `${API}/webhook-subscriptions/${id}`, headers: a.headers })
    ).data;
  }
  return snapshot;
}

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url }, clock: () => now });
  a = await createBrandWithKey(t.deps, { name: 'Brand A' });
  b = await createBrandWithKey(t.deps, { name: 'Brand B' });

  // September: two orders of A, issued as an invoice in October; one is then cancelled, which
  // issues a credit note.
  now = new Date('2026-09-10T08:00:00Z');
  expect((await createOrder(t.app, a)).statusCode).toBe(200);
  const credited = (await createOrder(t.app, a)).data.trackingRef;
  now = new Date('2026-10-14T08:00:00Z');
  const issued = await t.deps.invoices.issueMonth('2026-09', testOperator);
  expect(issued.issued.map((i) => i.id)).toEqual([invoiceIdFor(a.brandId, '2026-09')]);
  await t.deps.orders.cancel(a.brandId, credited);
  const creditNote = await t.pool.query('SELECT id FROM credit_notes WHERE brand_id = $1', [a.brandId]);
  expect(creditNote.rows).toHaveLength(1);

  // October: a pending and an awaiting_address order (both still editable and cancellable, so a
  // missing ownership check would show), and the running month's draft invoice.
  const pending = await createOrder(t.app, a);
  const awaiting = await createOrder(t.app, a, { customer_email: 'jane@example.com' });
  expect(pending.data.order.status).toBe('pending');
  expect(awaiting.data.order.status).toBe('awaiting_address');
  // B has objects of its own, so its lists are not trivially empty.
  expect((await createOrder(t.app, b)).statusCode).toBe(200);

  fixtures.trackingRef = [
    { label: 'pending order', id: pending.data.trackingRef },
    { label: 'awaiting_address order', id: awaiting.data.trackingRef },
  ];
  fixtures.id = [
    { label: 'issued invoice', id: invoiceIdFor(a.brandId, '2026-09') },
    { label: 'draft invoice', id: invoiceIdFor(a.brandId, '2026-10') },
    { label: 'credit note', id: creditNote.rows[0].id },
  ];
  // The pending order's pickup (created Wednesday 14 October before 12:00 in Paris).
  fixtures.pickupId = [{ label: 'pickup', id: pickupIdFor(a.brandId, TEST_PICKUP_ADDRESS, '2026-10-14') }];
  // A public address literal: the SSRF guard needs no DNS for it.
  const { subscription } = await t.deps.subscriptions.create(a.brandId, {
    url: 'https://93.184.216.34/hooks/a',
    event_types: ['order.created'],
  });
  fixtures.subscriptionId = [{ label: 'webhook subscription', id: subscription.id }];
});
afterAll(async () => {
  await t?.close();
  await scratch?.drop();
});

describe('another brand’s objects', () => {
  it('has a fixture for every path parameter of every brand route', () => {
    const routes = brandRoutes().filter((r) => paramsOf(r.url).length > 0);
    expect(routes.length).toBeGreaterThanOrEqual(5);
    for (const route of routes) {
      for (const param of paramsOf(route.url)) {
        expect(
          fixtures[param],
          `no cross-brand fixture for :${param} (${route.method} ${route.url})`,
        ).toBeDefined();
        expect(nowhere[param], `no "nowhere" id for :${param}`).toBeDefined();
      }
      if (route.method !== 'GET') {
        expect(
          Object.hasOwn(BODIES, `${route.method} ${route.url}`),
          `no body for ${route.method} ${route.url}`,
        ).toBe(true);
      }
    }
  });

  it('are 404 not_found for every route, exactly like an id that exists nowhere, and stay unchanged', async () => {
    const before = await snapshotOfA();
    // Sanity: A sees its own objects (so B's 404s are not fixtures gone wrong).
    for (const value of Object.values(before)) expect((value as { ok: boolean }).ok).toBe(true);

    const routes = brandRoutes().filter((r) => paramsOf(r.url).length > 0);
    for (const route of routes) {
      const params = paramsOf(route.url);
      for (const param of params) {
        for (const fixture of fixtures[param]!) {
          const label = `${route.method} ${route.url} with A's ${fixture.label}`;
          const other = Object.fromEntries(params.map((p) => [p, nowhere[p]!()]));
          const missing = { ...other };
          const theirs = { ...other, [param]: fixture.id };
          const reference = await request(route, b, missing);
          const crossed = await request(route, b, theirs);

          expect(reference.statusCode, `${label}: reference`).toBe(404);
          expect(crossed.statusCode, label).toBe(404);
          expect(crossed.data.error, label).toBe('not_found');
          // The same body, but for the id it names and the request id.
          const normalise = (body: Record<string, unknown>, id: string) => ({
            ...body,
            request_id: '<request id>',
            message: String(body.message).replaceAll(id, '<id>'),
          });
          expect(normalise(crossed.data, fixture.id), label).toEqual(
            normalise(reference.data, missing[param]!),
          );
          expect(crossed.headers['content-type'], label).toBe(reference.headers['content-type']);
          expect(crossed.body, label).not.toContain(a.brandId);
        }
      }
    }

    // Spellings the API accepts for a tracking reference reach the same answer.
    const ref = fixtures.trackingRef![0]!.id;
    for (const variant of [ref.toLowerCase(), ref.replace('-', ''), ` ${ref} `]) {
      const res = await call(t.app, {
        method: 'GET',
        url: `${API}/orders/${encodeURIComponent(variant)}`,
        headers: b.headers,
      });
      expect(res.statusCode, variant).toBe(404);
      const own = await call(t.app, {
        method: 'GET',
        url: `${API}/orders/${encodeURIComponent(variant)}`,
        headers: a.headers,
      });
      expect(own.statusCode, `A with ${JSON.stringify(variant)}`).toBe(200);
    }

    expect(await snapshotOfA()).toEqual(before);
  });

  it('are reachable by their own brand on every one of those routes (the fixtures are valid)', async () => {
    const routes = brandRoutes().filter((r) => paramsOf(r.url).length > 0);
    for (const route of routes) {
      for (const param of paramsOf(route.url)) {
        // Write routes get a fresh object each, so one route's change does not stop the next.
        const fixture =
          route.method === 'GET'
            ? fixtures[param]![0]!.id
            : param === 'trackingRef'
              ? (await createOrder(t.app, a)).data.trackingRef
              : fixtures[param]![0]!.id;
        const res = await request(route, a, { [param]: fixture });
        expect(res.statusCode, `${route.method} ${route.url} by A`).toBe(200);
      }
    }
  });

  it('never appear in the lists of another brand', async () => {
    const ids = [a.brandId, ...Object.values(fixtures).flatMap((list) => list.map((f) => f.id))];
    const listRoutes = brandRoutes().filter((r) => r.method === 'GET' && paramsOf(r.url).length === 0);
    expect(listRoutes.map((r) => r.url)).toEqual(
      expect.arrayContaining([`${API}/me`, `${API}/orders`, `${API}/invoices`]),
    );
    const queries = [
      '',
      '?limit=200',
      '?status=pending',
      '?status=awaiting_address',
      '?status=issued',
      '?status=draft',
    ];
    for (const route of listRoutes) {
      for (const query of queries) {
        const res = await call(t.app, { method: 'GET', url: `${route.url}${query}`, headers: b.headers });
        if (res.statusCode === 400) continue; // a filter this list does not have
        expect(res.statusCode, `${route.url}${query}`).toBe(200);
        for (const id of ids) expect(res.body, `${route.url}${query} shows ${id}`).not.toContain(id);
      }
    }
    // …while A's own lists do show them (the check above is not vacuous).
    const own = await call(t.app, { method: 'GET', url: `${API}/orders?limit=200`, headers: a.headers });
    for (const { id } of fixtures.trackingRef!) expect(own.body).toContain(id);
    const invoices = await call(t.app, { method: 'GET', url: `${API}/invoices`, headers: a.headers });
    for (const { id } of fixtures.id!) expect(invoices.body).toContain(id);
    const pickups = await call(t.app, {
      method: 'GET',
      url: `${API}/pickups?date=2026-10-14`,
      headers: a.headers,
    });
    for (const { id } of fixtures.pickupId!) expect(pickups.body).toContain(id);
  });

  it('do not share Idempotency-Keys: the same key and body from another brand is a new request', async () => {
    const key = { 'idempotency-key': 'cross-brand-shared-key' };
    const first = await createOrder(t.app, a, VALID_ORDER, key);
    expect(first.statusCode).toBe(200);
    const same = await createOrder(t.app, b, VALID_ORDER, key);
    expect(same.statusCode).toBe(200);
    expect(same.headers['idempotent-replayed']).toBeUndefined();
    expect(same.data.trackingRef).not.toBe(first.data.trackingRef);
    const differentBody = await createOrder(
      t.app,
      b,
      { ...VALID_ORDER, reference: 'B-1' },
      {
        'idempotency-key': 'cross-brand-other-key',
      },
    );
    expect(differentBody.statusCode).toBe(200);
    const aReuses = await createOrder(
      t.app,
      a,
      { ...VALID_ORDER, reference: 'A-2' },
      {
        'idempotency-key': 'cross-brand-other-key',
      },
    );
    expect(aReuses.statusCode).toBe(200);
    expect(aReuses.data.order.reference).toBe('A-2');
  });
});
