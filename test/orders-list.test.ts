import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const list = (brand: TestBrand, query = '') =>
  call(t.app, { method: 'GET', url: `${API}/orders${query}`, headers: brand.headers });

/** Inserts n orders for a brand straight in SQL (fast seeding), spread over time, oldest first. */
async function seedOrders(brandId: string, n: number): Promise<void> {
  await t.pool.query(
    `INSERT INTO orders (tracking_ref, brand_id, status, customer_email, service, unit_type, quantity, unit_weight_grams,
        delivery_address, delivery_postcode, delivery_city, delivery_zone, price_excl_tax_cents, vat_cents, price_cents,
        promised_date, created_at, updated_at, priced_at, history)
     SELECT 'DLV-' || upper(substr(translate(encode(gen_random_bytes_compat(), 'hex'), 'abcdef', 'ABCDEF'), 1, 10)),
            $1, CASE WHEN g % 3 = 0 THEN 'delivered' ELSE 'pending' END, 'seed@example.com', 'standard', 'parcel', 1, 1000,
            '1 rue X 75011 Paris', '75011', 'Paris', 'paris', 700, 140, 840, '2026-01-02',
            now() - make_interval(secs => ($2 - g)), now() - make_interval(secs => ($2 - g)),
            now() - make_interval(secs => ($2 - g)), '[]'
       FROM generate_series(1, $2) g`,
    [brandId, n],
  );
}

beforeAll(async () => {
  // md5 gives 32 hex characters; hex digits are all valid Crockford characters.
  await t.pool.query(
    "CREATE OR REPLACE FUNCTION gen_random_bytes_compat() RETURNS bytea LANGUAGE sql AS $$ SELECT decode(md5(random()::text || clock_timestamp()::text), 'hex') $$",
  );
});

describe('GET /orders', () => {
  it('lists newest first without events, with next_cursor null on the last page', async () => {
    const brand = await createBrandWithKey(t.deps);
    const refs: string[] = [];
    for (let i = 0; i < 3; i++)
      refs.push((await createOrder(t.app, brand, { ...VALID_ORDER, reference: `R${i}` })).data.trackingRef);
    const res = await list(brand);
    expect(res.statusCode).toBe(200);
    expect(res.data.orders.map((o: { tracking_ref: string }) => o.tracking_ref)).toEqual([...refs].reverse());
    expect(res.data.orders[0].events).toBeUndefined();
    expect(res.data.orders[0].status).toBe('pending');
    expect(res.data.next_cursor).toBeNull();
    const other = await createBrandWithKey(t.deps);
    expect((await list(other)).data).toEqual({ ok: true, orders: [], next_cursor: null });
  });

  it('filters by status and rejects unknown statuses, bad limits and bad cursors with 400', async () => {
    const brand = await createBrandWithKey(t.deps);
    const a = (await createOrder(t.app, brand)).data.trackingRef;
    await createOrder(t.app, brand);
    await call(t.app, { method: 'POST', url: `${API}/orders/${a}/cancel`, headers: brand.headers });
    const cancelled = await list(brand, '?status=cancelled');
    expect(cancelled.data.orders.map((o: { tracking_ref: string }) => o.tracking_ref)).toEqual([a]);
    expect((await list(brand, '?status=pending')).data.orders).toHaveLength(1);
    expect((await list(brand, '?limit=1')).data.orders).toHaveLength(1);
    expect((await list(brand, '?limit=200')).statusCode).toBe(200);
    for (const query of [
      '?status=lost',
      '?status=',
      '?limit=0',
      '?limit=-1',
      '?limit=1.5',
      '?limit=201',
      '?limit=abc',
      '?cursor=zzz',
      '?page=2',
    ]) {
      const res = await list(brand, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error).toBe('invalid_request');
      expect(res.data.details.length, query).toBeGreaterThan(0);
    }
  });

  it('walks 1,000 orders page by page while others are created, seeing each exactly once', async () => {
    const brand = await createBrandWithKey(t.deps);
    await seedOrders(brand.brandId, 1000);
    const { rows } = await t.pool.query('SELECT tracking_ref FROM orders WHERE brand_id = $1', [
      brand.brandId,
    ]);
    const existing = new Set(rows.map((r) => r.tracking_ref as string));
    expect(existing.size).toBe(1000);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const [page]: [Awaited<ReturnType<typeof list>>, unknown] = await Promise.all([
        list(brand, `?limit=37${cursor ? `&cursor=${cursor}` : ''}`),
        createOrder(t.app, brand), // a concurrent insert on every page
      ]);
      expect(page.statusCode).toBe(200);
      seen.push(...page.data.orders.map((o: { tracking_ref: string }) => o.tracking_ref));
      cursor = page.data.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    const seenExisting = seen.filter((ref) => existing.has(ref));
    expect(seenExisting).toHaveLength(1000);
    expect(new Set(seen).size).toBe(seen.length);

    // The delivered filter walks too (its own index).
    const delivered: string[] = [];
    cursor = null;
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        brand,
        `?status=delivered&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      );
      delivered.push(...page.data.orders.map((o: { tracking_ref: string }) => o.tracking_ref));
      cursor = page.data.next_cursor;
    } while (cursor);
    expect(delivered).toHaveLength(333);
  });
});

describe('list cursors are opaque and bound to their list', () => {
  it('refuse a cursor reused with another brand, another status, or tampered with, and store nothing', async () => {
    const brand = await createBrandWithKey(t.deps);
    const other = await createBrandWithKey(t.deps);
    await seedOrders(brand.brandId, 5);
    const page = await list(brand, '?status=pending&limit=1');
    const cursor: string = page.data.next_cursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    // Nothing in it is readable: not the row id, not the version prefix; the same position is sealed
    // afresh each time (random nonce), so equal cursors do not even tell equal positions. (Random
    // bytes may spell a digit pair by chance: the check is on the row id itself.)
    const { rows } = await t.pool.query<{ id: string }>(
      "SELECT id::text FROM orders WHERE brand_id = $1 AND status = 'pending' ORDER BY created_at DESC, id DESC LIMIT 1",
      [brand.brandId],
    );
    const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
    expect(decoded).not.toContain('o1.');
    expect(decoded).not.toContain(`.${rows[0]!.id}`);
    expect((await list(brand, '?status=pending&limit=1')).data.next_cursor).not.toBe(cursor);
    expect((await list(brand, `?status=pending&limit=1&cursor=${cursor}`)).statusCode).toBe(200);
    const tampered = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
    for (const [who, query] of [
      [other, `?status=pending&cursor=${cursor}`],
      [brand, `?cursor=${cursor}`],
      [brand, `?status=delivered&cursor=${cursor}`],
      [brand, `?status=pending&cursor=${tampered}`],
      [brand, `?cursor=${Buffer.from('o1.19').toString('base64url')}`],
    ] as const) {
      const res = await list(who, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error).toBe('invalid_request');
      expect(res.data.details.map((d: { field: string }) => d.field)).toEqual(['cursor']);
    }
  });

  it('use the same codec for invoices: bound to the brand and the status', async () => {
    const brand = await createBrandWithKey(t.deps);
    const other = await createBrandWithKey(t.deps);
    const invoices = (who: TestBrand, query: string) =>
      call(t.app, { method: 'GET', url: `${API}/invoices${query}`, headers: who.headers });
    // Bound to the status and type filters; the position is a period and a credit note number.
    const scope = { list: 'invoices', brandId: brand.brandId, filter: '|' };
    const codec = await t.deps.cursors.ready();
    const cursor = codec.encode(scope, '2026-11.');
    expect((await invoices(brand, `?cursor=${cursor}`)).statusCode).toBe(200);
    for (const [who, query] of [
      [other, `?cursor=${cursor}`],
      [brand, `?status=issued&cursor=${cursor}`],
      [brand, `?cursor=${Buffer.from('i1.2026-11').toString('base64url')}`],
    ] as const) {
      const res = await invoices(who, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.details.map((d: { field: string }) => d.field)).toEqual(['cursor']);
    }
    // An order cursor is not an invoice cursor, even for the same brand and filter.
    const orderCursor = codec.encode({ ...scope, list: 'orders' }, '1');
    expect((await invoices(brand, `?cursor=${orderCursor}`)).statusCode).toBe(400);
  });
});
