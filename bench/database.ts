/** The bench's database: a throw-away one, its seed, and the minimal reference's own table. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { openEmbeddedDatabase } from '../src/infra/embedded-postgres.ts';

export async function prepareDatabase(): Promise<{ url: string; cleanup(): Promise<void> }> {
  let adminUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  let dir: string | null = null;
  if (!adminUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-bench-'));
    const embedded = await openEmbeddedDatabase(dir, {
      settings: { max_connections: '200', shared_preload_libraries: 'pg_stat_statements' },
    });
    adminUrl = embedded.url;
    stop = embedded.stop;
  }
  const database = await createThrowawayDatabase(adminUrl, 'dlv_bench');
  return {
    url: database.url,
    async cleanup() {
      await database.drop();
      await stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Many orders for one brand, straight in SQL: unique refs from a counter (hex digits are Crockford). */
export async function seedOrders(pool: pg.Pool, brandId: string, count: number): Promise<void> {
  const batch = 200_000;
  for (let from = 1; from <= count; from += batch) {
    await pool.query(
      `INSERT INTO orders (tracking_ref, brand_id, status, customer_email, service, unit_type, quantity, unit_weight_grams,
          delivery_address, delivery_postcode, delivery_city, delivery_zone, price_excl_tax_cents, vat_cents, price_cents,
          promised_date, created_at, updated_at)
       SELECT 'DLV-' || lpad(upper(to_hex(g)), 10, '0'), $1, (ARRAY['pending','picked_up','in_transit','delivered'])[1 + g % 4],
              'seed@example.com', 'standard', 'parcel', 1, 1000, '1 rue X 75011 Paris', '75011', 'Paris', 'paris',
              700, 140, 840, '2026-01-02', now() - make_interval(secs => $3 - g), now() - make_interval(secs => $3 - g)
         FROM generate_series($2::int, $4::int) g`,
      [brandId, from, count + 1, Math.min(from + batch - 1, count)],
    );
  }
  // Vacuum now, so that autovacuum on a million new rows does not run during the measurements.
  await pool.query('VACUUM (ANALYZE) orders');
}

/** Server-side time of the list query at its first page and deep in the list, by EXPLAIN ANALYZE. */
export async function explainListQueries(pool: pg.Pool, brandId: string): Promise<string[]> {
  const deep = await pool.query<{ id: number }>(
    'SELECT id FROM orders WHERE brand_id = $1 ORDER BY created_at DESC, id DESC OFFSET 500000 LIMIT 1',
    [brandId],
  );
  const after = deep.rows[0]?.id ?? null;
  const lines: string[] = [];
  for (const [label, status, cursor] of [
    ['first page', null, null],
    ['page after 500,000 orders', null, after],
    ['first page, status=delivered', 'delivered', null],
  ] as const) {
    // The statement the repository prepares for these filters (see listJson there).
    const values: unknown[] = [brandId];
    let where = 'o.brand_id = $1';
    if (status) where += ` AND o.status = $${values.push(status)}`;
    if (cursor)
      where += ` AND (o.created_at, o.id) < (SELECT c.created_at, c.id FROM orders c WHERE c.id = $${values.push(cursor)} AND c.brand_id = $1)`;
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, FORMAT TEXT) SELECT o.* FROM orders o WHERE ${where}
         ORDER BY o.created_at DESC, o.id DESC LIMIT $${values.push(51)}`,
      values,
    );
    const plan = rows.map((r) => r['QUERY PLAN']);
    const time = plan.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
    const index = /using (\S+)/.exec(plan.find((l) => l.includes('Index')) ?? '')?.[1] ?? 'no index';
    lines.push(`GET /orders query, ${label}: ${time} (index ${index})`);
  }
  return lines;
}

/**
 * The minimal reference's narrow table, with as many orders for the brand as `seedOrders` gives
 * the project (same refs and times), so that its list and detail read an index of the same size.
 */
export async function seedMinimalOrders(pool: pg.Pool, brandId: string, count: number): Promise<void> {
  await pool.query(`CREATE TABLE bench_min_orders (
    id bigint GENERATED ALWAYS AS IDENTITY,
    tracking_ref text PRIMARY KEY,
    brand_id text NOT NULL,
    status text NOT NULL,
    customer_email text NOT NULL,
    delivery_address text NOT NULL,
    delivery_postcode text NOT NULL,
    price_cents integer NOT NULL,
    created_at timestamptz NOT NULL
  )`);
  await pool.query(
    'CREATE INDEX bench_min_orders_page ON bench_min_orders (brand_id, created_at DESC, id DESC)',
  );
  await pool.query(
    `INSERT INTO bench_min_orders (tracking_ref, brand_id, status, customer_email, delivery_address,
        delivery_postcode, price_cents, created_at)
     SELECT 'DLV-' || lpad(upper(to_hex(g)), 10, '0'), $1, (ARRAY['pending','picked_up','in_transit','delivered'])[1 + g % 4],
            'seed@example.com', '1 rue X 75011 Paris', '75011', 840, now() - make_interval(secs => $2 - g)
       FROM generate_series(1, $2::int) g`,
    [brandId, count],
  );
  // Indexes filled row by row, as the project's are; then vacuumed as its table is.
  await pool.query('VACUUM (ANALYZE) bench_min_orders');
}

/** The minimal table's copy of one of the project's orders (same ref, brand and time). */
export async function copyToMinimal(pool: pg.Pool, ref: string): Promise<void> {
  await pool.query(
    `INSERT INTO bench_min_orders (tracking_ref, brand_id, status, customer_email, delivery_address,
        delivery_postcode, price_cents, created_at)
     SELECT tracking_ref, brand_id, status, customer_email, delivery_address, delivery_postcode, price_cents, created_at
       FROM orders WHERE tracking_ref = $1`,
    [ref],
  );
}
