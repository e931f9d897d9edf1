import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_FEED_LAG_MS } from '../src/domain/orders/order-page.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { sleep } from './support/webhook-receiver.ts';

/**
 * The change feed, `GET /orders?sort=updated_at&updated_after=…`: what a polling integration reads.
 * The app's clock runs 4 times faster than real time, so the feed's 5-second lag passes in 1.25 s
 * while writes still take their real time to commit (a commit delay counts 4 times over).
 */
const SPEED = 4;
const started = Date.now();
let offsetMs = 0;
const clock = () => new Date(started + (Date.now() - started) * SPEED + offsetMs);

let t: TestApp;
let brand: TestBrand;

beforeAll(async () => {
  t = await buildTestApp({ clock, poolSize: 20 });
  brand = await createBrandWithKey(t.deps, { name: 'Feed brand' });
});
afterAll(() => t?.close());

const ADDRESSES = [
  '12 rue Oberkampf 75011 Paris',
  '5 rue du Dépôt 93200 Saint-Denis',
  '20 rue de la Gare 91300 Massy',
];

async function page(query: string, b: TestBrand = brand) {
  const res = await call(t.app, { method: 'GET', url: `${API}/orders?${query}`, headers: b.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.data as { orders: { tracking_ref: string; updated_at: string }[]; next_cursor: string | null };
}

/**
 * A poller as documented: follows `next_cursor` until null, then polls again later with
 * `updated_after` = the `updated_at` of the last order received.
 */
function poller(b: TestBrand = brand) {
  const seen: { ref: string; updatedAt: string }[] = [];
  let since = new Date(0).toISOString();
  return {
    seen,
    async catchUp(limit = 7) {
      const base = `sort=updated_at&limit=${limit}&updated_after=${encodeURIComponent(since)}`;
      let query = base;
      for (;;) {
        const p = await page(query, b);
        for (const o of p.orders) seen.push({ ref: o.tracking_ref, updatedAt: o.updated_at });
        if (p.orders.length > 0) since = p.orders.at(-1)!.updated_at;
        if (p.next_cursor === null) return;
        query = `${base}&cursor=${p.next_cursor}`;
      }
    },
  };
}

describe('GET /orders?sort=updated_at (the change feed)', () => {
  it('walks every change exactly once, oldest first, while orders are created and updated', async () => {
    const feed = poller();
    let writing = true;
    const ctx = { id: brand.brandId, defaultPickupAddress: ADDRESSES[1]! };

    async function writer(n: number) {
      for (let i = 0; writing; i++) {
        const order = await t.deps.orders.create(ctx, {
          customer_email: 'feed@example.com',
          delivery_address: ADDRESSES[(n + i) % ADDRESSES.length],
          reference: `W${n}-${i}`,
        });
        await t.deps.orders.update(brand.brandId, order.trackingRef, { delivery_recipient: `R${i}` });
        if (i % 3 === 0) await t.deps.orders.setStatus(order.trackingRef, 'picked_up', null, testOperator);
        if (i % 3 === 1) await t.deps.orders.cancel(brand.brandId, order.trackingRef);
      }
    }

    /** A change stamped now that commits 1 s later (4 s of the app's time, within the lag). */
    async function slowChange() {
      const order = await t.deps.orders.create(ctx, { customer_email: 'slow@example.com' });
      await sleep(300);
      const client = await t.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query("UPDATE orders SET updated_at = $2, reference = 'SLOW' WHERE tracking_ref = $1", [
          order.trackingRef,
          clock(),
        ]);
        await sleep(1000);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    }

    async function reader() {
      while (writing) {
        await feed.catchUp();
        await sleep(100);
      }
    }

    const work = Promise.all([writer(1), writer(2), writer(3), slowChange(), slowChange(), reader()]);
    await sleep(3500);
    writing = false;
    await work;
    const seenWhileWriting = feed.seen.length;
    // Past the lag (the clock jumps ahead): the rest of the feed appears.
    offsetMs += CHANGE_FEED_LAG_MS + 1000;
    await feed.catchUp();

    expect(seenWhileWriting, 'the feed moved while orders were being written').toBeGreaterThan(20);
    const keys = feed.seen.map((s) => `${s.ref}@${s.updatedAt}`);
    expect(new Set(keys).size, 'no change seen twice').toBe(keys.length);
    const times = feed.seen.map((s) => s.updatedAt);
    expect(times, 'oldest change first').toEqual([...times].sort());
    // Every order's last state was seen (including the slow changes, committed late).
    const { rows } = await t.pool.query<{ ref: string; at: Date; reference: string | null }>(
      'SELECT tracking_ref AS ref, updated_at AS at, reference FROM orders WHERE brand_id = $1',
      [brand.brandId],
    );
    expect(rows.filter((r) => r.reference === 'SLOW')).toHaveLength(2);
    for (const row of rows) expect(keys, row.ref).toContain(`${row.ref}@${row.at.toISOString()}`);
  }, 30_000);

  it('keeps the default list newest first, and refuses updated_after without sort=updated_at', async () => {
    const b = await createBrandWithKey(t.deps);
    const ctx = { id: b.brandId, defaultPickupAddress: ADDRESSES[0]! };
    const first = await t.deps.orders.create(ctx, { customer_email: 'a@example.com' });
    const second = await t.deps.orders.create(ctx, { customer_email: 'b@example.com' });
    // A later millisecond: within one, the feed orders changes by id, and this test is about time.
    await sleep(5);
    await t.deps.orders.update(b.brandId, first.trackingRef, { reference: 'CHANGED' });
    expect((await page('', b)).orders.map((o) => o.tracking_ref)).toEqual([
      second.trackingRef,
      first.trackingRef,
    ]);
    // Nothing yet: the last changes are younger than the lag.
    expect((await page('sort=updated_at', b)).orders).toEqual([]);
    offsetMs += CHANGE_FEED_LAG_MS + 1000;
    expect((await page('sort=updated_at', b)).orders.map((o) => o.tracking_ref)).toEqual([
      second.trackingRef,
      first.trackingRef,
    ]);

    const refused = async (query: string, field: string) => {
      const res = await call(t.app, { method: 'GET', url: `${API}/orders?${query}`, headers: b.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.data.details?.[0]?.field ?? res.data.message, query).toContain(field);
    };
    await refused('updated_after=2026-01-01T00:00:00Z', 'updated_after');
    await refused('sort=updated_at&updated_after=2026-02-30T00:00:00Z', 'updated_after');
    await refused('sort=updated_at&updated_after=yesterday', 'updated_after');
    await refused('sort=price', 'sort');
  });

  it('binds the cursor to updated_after: reused with another instant it is refused', async () => {
    const b = await createBrandWithKey(t.deps);
    const ctx = { id: b.brandId, defaultPickupAddress: ADDRESSES[0]! };
    for (let i = 0; i < 3; i++) await t.deps.orders.create(ctx, { customer_email: 'c@example.com' });
    offsetMs += CHANGE_FEED_LAG_MS + 1000;
    const since = '2020-01-01T00:00:00Z';
    const p = await page(`sort=updated_at&limit=1&updated_after=${since}`, b);
    expect(p.next_cursor).not.toBeNull();
    const next = await page(`sort=updated_at&limit=1&updated_after=${since}&cursor=${p.next_cursor}`, b);
    expect(next.orders[0]!.tracking_ref).not.toBe(p.orders[0]!.tracking_ref);
    const res = await call(t.app, {
      method: 'GET',
      url: `${API}/orders?sort=updated_at&limit=1&updated_after=2021-01-01T00:00:00Z&cursor=${p.next_cursor}`,
      headers: b.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.data.details[0].field).toBe('cursor');
    // Nor is a newest-first cursor accepted by the feed.
    const newest = await page('limit=1', b);
    const mixed = await call(t.app, {
      method: 'GET',
      url: `${API}/orders?sort=updated_at&cursor=${newest.next_cursor}`,
      headers: b.headers,
    });
    expect(mixed.statusCode).toBe(400);
  });
});
