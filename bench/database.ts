/** The bench's database: a throw-away one, its seed, and the minimal reference's own table. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { storedJsonSql } from '../src/db/repositories/order-sql.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { STORED_JSON_VERSION } from '../src/domain/orders/order-json.ts';
import { openEmbeddedDatabase } from '../src/infra/embedded-postgres.ts';

export async function prepareDatabase(): Promise<{ url: string; cleanup(): Promise<void> }> {
  let adminUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  let dir: string | null = null;
  if (!adminUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-bench-'));
    const embedded = await openEmbeddedDatabase(dir, {
      settings: { max_connections: '200', shared_preload_libraries: 'pg_stat_statements' },
      // As root, the binaries' copy goes there (kept from run to run), as for the test runs.
      systemDir: path.join(os.tmpdir(), 'dlv-test-embedded-postgres'),
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

/**
 * Many orders for one brand, straight in SQL, as the service writes them (history and stored JSON
 * included): unique refs from a counter (hex digits are Crockford).
 */
export async function seedOrders(pool: pg.Pool, brandId: string, count: number): Promise<void> {
  const batch = 200_000;
  const at = `to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  for (let from = 1; from <= count; from += batch) {
    await pool.query(
      `INSERT INTO orders (tracking_ref, brand_id, status, customer_email, service, unit_type, quantity, unit_weight_grams,
          delivery_address, delivery_postcode, delivery_city, delivery_zone, price_excl_tax_cents, vat_cents, price_cents,
          promised_date, created_at, updated_at, priced_at, history, json_rest, json_version)
       SELECT s.tracking_ref, s.brand_id, s.status, s.customer_email, s.service, s.unit_type, s.quantity,
              s.unit_weight_grams, s.delivery_address, s.delivery_postcode, s.delivery_city, 'paris',
              s.price_excl_tax_cents, 140, s.price_cents, s.promised_date, s.created_at, s.updated_at, s.created_at,
              ('[{"status":"' || s.status || '","at":"' || ${at} || '","note":null}]')::json,
              ${storedJsonSql((column) => `s.${column}`)}, ${STORED_JSON_VERSION}
         FROM (SELECT 'DLV-' || lpad(upper(to_hex(g)), 10, '0') AS tracking_ref, $1::text AS brand_id,
                      (ARRAY['pending','picked_up','in_transit','delivered'])[1 + g % 4] AS status, NULL::text AS reference,
                      'seed@example.com' AS customer_email, NULL::bigint AS amount_cents, NULL::text AS pickup_address,
                      '1 rue X 75011 Paris' AS delivery_address, '75011' AS delivery_postcode, 'Paris' AS delivery_city,
                      NULL::text AS delivery_recipient, NULL::text AS delivery_phone, NULL::text AS delivery_email,
                      'standard' AS service, 'parcel' AS unit_type, 1 AS quantity, 1000 AS unit_weight_grams,
                      840 AS price_cents, 700 AS price_excl_tax_cents, '2026-01-02'::date AS promised_date,
                      now() - make_interval(secs => $3 - g) AS created_at, now() - make_interval(secs => $3 - g) AS updated_at
                 FROM generate_series($2::int, $4::int) g) s`,
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
