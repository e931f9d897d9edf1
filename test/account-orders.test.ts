import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';

/** The account area's orders: list, search, pages, an order's page, cancelling, roles, brands. */
let t: TestApp;
let ipCounter = 0;
let now = new Date('2026-11-23T09:00:00Z');

beforeAll(async () => {
  t = await buildTestApp({ clock: () => now });
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.deps, options);
  const b = new Browser(t.app, `10.3.0.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

async function orderFor(brandId: string, body: Record<string, unknown> = {}, at?: string) {
  if (at) now = new Date(at);
  return t.deps.orders.create(
    { id: brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
    {
      customer_email: 'client@example.com',
      delivery_address: '12 rue Oberkampf 75011 Paris',
      delivery_recipient: 'Jeanne Martin',
      delivery_phone: '06 12 34 56 78',
      ...body,
    },
  );
}

const statusOf = async (ref: string) =>
  (await t.pool.query<{ status: string }>('SELECT status FROM orders WHERE tracking_ref = $1', [ref]))
    .rows[0]!.status;

const refsIn = (body: string) => [...body.matchAll(/<code>(DLV-[0-9A-Z]{10})<\/code>/g)].map((m) => m[1]);

describe('the orders list', () => {
  let brandId: string;
  let b: Browser;
  const refs: string[] = [];

  beforeAll(async () => {
    brandId = (await createBrandWithKey(t.deps, { name: 'Liste' })).brandId;
    ({ b } = await signedIn({ brandId }));
    // 30 orders a minute apart, newest last; references SHOP-1000 … SHOP-1029.
    for (let i = 0; i < 30; i++) {
      const at = new Date(Date.UTC(2026, 10, 20, 8, i)).toISOString();
      refs.push((await orderFor(brandId, { reference: `SHOP-${1000 + i}` }, at)).trackingRef);
    }
    await t.deps.orders.cancel(brandId, refs[3]!);
  });

  it('shows the newest first, 25 a page, with an "older" link that leads to the rest', async () => {
    const first = await b.get('/account/orders');
    expect(first.status).toBe(200);
    expect(refsIn(first.body)).toEqual(refs.slice(5).reverse());
    expect(first.body).toContain('SHOP-1029');
    expect(first.body).toContain('75011 Paris');
    // 08:29 UTC on 20 November is 09:29 in Paris.
    expect(first.body).toContain('20 Nov 2026, 09:29');
    expect(first.body).toMatch(/badge-pending/);
    const older = first.body.match(/<a rel="next" href="([^"]+)"/)![1]!.replaceAll('&amp;', '&');
    const second = await b.get(older);
    expect(refsIn(second.body)).toEqual(refs.slice(0, 5).reverse());
    expect(second.body).not.toContain('rel="next"');
    expect(second.body).toContain('href="/account/orders"');
  });

  it('filters by status', async () => {
    const res = await b.get('/account/orders?status=cancelled');
    expect(refsIn(res.body)).toEqual([refs[3]]);
    expect(res.body).toContain('<option value="cancelled" selected>');
  });

  it('finds a tracking reference typed loosely, and the brand’s own reference exactly or by its start', async () => {
    const loose = refs[7]!.toLowerCase().replace('dlv-', 'dlv');
    expect(refsIn((await b.get(`/account/orders?q=${loose}`)).body)).toEqual([refs[7]]);
    expect(refsIn((await b.get('/account/orders?q=SHOP-1012')).body)).toEqual([refs[12]]);
    expect(refsIn((await b.get('/account/orders?q=SHOP-101')).body)).toEqual(refs.slice(10, 20).reverse());
    expect(refsIn((await b.get('/account/orders?q=SHOP-101&status=cancelled')).body)).toEqual([]);
    const none = await b.get('/account/orders?q=nothing-like-this');
    expect(none.body).toContain('No order matches.');
  });

  it('answers a hand-edited status or cursor with the form and why, not a crash', async () => {
    const bad = await b.get('/account/orders?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Status: must be one of');
    // A cursor of one search reused with another is refused, like the API refuses it.
    const first = await b.get('/account/orders');
    const cursor = first.body.match(/cursor=([^"&]+)/)![1]!;
    expect((await b.get(`/account/orders?status=pending&cursor=${cursor}`)).status).toBe(400);
  });

  it('never lists another brand’s orders, even searched by their tracking reference', async () => {
    const other = await signedIn();
    const res = await other.b.get(`/account/orders?q=${refs[0]}`);
    expect(refsIn(res.body)).toEqual([]);
    expect(refsIn((await other.b.get('/account/orders')).body)).toEqual([]);
  });

  it('searches references by index (a prefix is a range in byte order)', async () => {
    const client = await t.pool.connect();
    try {
      // 30 rows: the planner would rightly read the table; asked not to, it must find the index.
      // With statistics, so that another index on brand_id (the change feed's) is not a tie.
      await client.query('ANALYZE orders');
      await client.query('SET enable_seqscan = off');
      const plan = await client.query(
        `EXPLAIN SELECT id FROM orders o WHERE o.brand_id = '${brandId}'
           AND o.reference COLLATE "C" >= 'SHOP-101' AND o.reference COLLATE "C" < 'SHOP-101' || chr(1114111)`,
      );
      expect(JSON.stringify(plan.rows)).toContain('orders_brand_reference_idx');
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
  });
});

describe('an order’s page', () => {
  it('shows the timeline in Paris time, addresses, recipient, prices with and without VAT, and the tracking link', async () => {
    const { brandId } = await createBrandWithKey(t.deps);
    const order = await orderFor(brandId, { reference: 'CMD-<42>' }, '2026-11-20T15:05:00Z');
    now = new Date('2026-11-21T07:30:00Z');
    await t.deps.orders.setStatus(order.trackingRef, 'picked_up', 'Scanned at the depot', testOperator);
    // Signed in now: a session started before the clock moved would have expired (12 h idle).
    const { b } = await signedIn({ brandId });
    const res = await b.get(`/account/orders/${order.trackingRef}`);
    expect(res.status).toBe(200);
    const body = res.body;
    expect(body).toContain('CMD-&lt;42&gt;');
    expect(body).not.toContain('CMD-<42>');
    expect(body).toContain('12 rue Oberkampf 75011 Paris');
    expect(body).toContain(TEST_PICKUP_ADDRESS);
    expect(body).toContain('Jeanne Martin');
    // 15:05 UTC is 16:05 in Paris; 07:30 UTC is 08:30.
    expect(body).toContain('20 Nov 2026, 16:05');
    expect(body).toContain('21 Nov 2026, 08:30');
    expect(body).toContain('Scanned at the depot');
    expect(body).toMatch(/Picked up/);
    const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;
    expect(body).toContain(euros(order.priceCents!));
    expect(body).toContain(euros(order.priceExclTaxCents!));
    expect(body).toContain(euros(order.vatCents!));
    expect(body).toContain(`>${t.deps.orders.detailJson(order).tracking_url}</a>`);
    expect(body).toContain('Standard — next business day');
    // Picked up: no cancel button.
    expect(body).not.toContain('/cancel"');
    const fr = await b.get(`/account/orders/${order.trackingRef}?lang=fr`);
    expect(fr.body).toContain('Enlevée');
    expect(fr.body).toContain('20 nov. 2026, 16:05');
    expect(fr.body).toContain('Commandes');
  });

  it('is the 404 page for another brand’s order, an unknown one and a malformed one', async () => {
    const owner = await signedIn();
    const order = await orderFor(owner.brandId);
    const { b } = await signedIn();
    for (const url of [
      `/account/orders/${order.trackingRef}`,
      `/account/orders/${order.trackingRef}/cancel`,
      '/account/orders/DLV-0000000000',
      '/account/orders/not-a-ref',
    ]) {
      const res = await b.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body).toContain('This page does not exist.');
    }
    const form = await b.get('/account/orders');
    const post = await b.post(`/account/orders/${order.trackingRef}/cancel`, { _csrf: csrfOf(form.body) });
    expect(post.status).toBe(404);
    expect(await statusOf(order.trackingRef)).toBe('pending');
  });
});

describe('cancelling', () => {
  it('asks for confirmation, then cancels with the form’s token and says so', async () => {
    const { b, brandId } = await signedIn({ role: 'developer' });
    const order = await orderFor(brandId);
    const page = await b.get(`/account/orders/${order.trackingRef}`);
    expect(page.body).toContain(`href="/account/orders/${order.trackingRef}/cancel"`);
    const confirm = await b.get(`/account/orders/${order.trackingRef}/cancel`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain('Yes, cancel the order');
    expect(await statusOf(order.trackingRef)).toBe('pending');
    const res = await b.post(`/account/orders/${order.trackingRef}/cancel`, { _csrf: csrfOf(confirm.body) });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/account/orders/${order.trackingRef}?cancelled=1`);
    expect(await statusOf(order.trackingRef)).toBe('cancelled');
    const after = await b.get(res.location!);
    expect(after.body).toContain(`Order ${order.trackingRef} is cancelled.`);
    expect(after.body).toContain('Cancelled by the brand');
  });

  it('changes nothing without the form’s token, or with a wrong one', async () => {
    const { b, brandId } = await signedIn();
    const order = await orderFor(brandId);
    const confirm = await b.get(`/account/orders/${order.trackingRef}/cancel`);
    expect((await b.post(`/account/orders/${order.trackingRef}/cancel`, {})).status).toBe(403);
    const wrong = { _csrf: `${csrfOf(confirm.body)}x` };
    expect((await b.post(`/account/orders/${order.trackingRef}/cancel`, wrong)).status).toBe(403);
    expect(await statusOf(order.trackingRef)).toBe('pending');
  });

  it('refuses a picked-up order with a clear message, changing nothing', async () => {
    const { b, brandId } = await signedIn();
    const order = await orderFor(brandId);
    const confirm = await b.get(`/account/orders/${order.trackingRef}/cancel`);
    // Picked up between the confirmation page and the click.
    await t.deps.orders.setStatus(order.trackingRef, 'picked_up', null, testOperator);
    const res = await b.post(`/account/orders/${order.trackingRef}/cancel`, { _csrf: csrfOf(confirm.body) });
    expect(res.status).toBe(422);
    expect(res.body).toContain('This order can no longer be cancelled: it is “Picked up”.');
    expect(await statusOf(order.trackingRef)).toBe('picked_up');
    const again = await b.get(`/account/orders/${order.trackingRef}/cancel`);
    expect(again.status).toBe(422);
    expect(again.body).toContain('can no longer be cancelled');
  });

  it('lets finance people see orders but not cancel them', async () => {
    const { b, brandId } = await signedIn({ role: 'finance' });
    const order = await orderFor(brandId, { reference: 'FIN-1' });
    const home = await b.get('/account');
    expect(home.body).toContain('href="/account/orders"');
    expect(refsIn((await b.get('/account/orders')).body)).toEqual([order.trackingRef]);
    const page = await b.get(`/account/orders/${order.trackingRef}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('/cancel"');
    expect(page.body).toContain('Your role lets you view orders, not cancel them.');
    expect((await b.get(`/account/orders/${order.trackingRef}/cancel`)).status).toBe(403);
    const res = await b.post(`/account/orders/${order.trackingRef}/cancel`, { _csrf: csrfOf(page.body) });
    expect(res.status).toBe(403);
    expect(await statusOf(order.trackingRef)).toBe('pending');
  });
});
