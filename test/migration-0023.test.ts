import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import type { Pool } from '../src/db/pool.ts';
import { storesOn } from '../src/db/stores.ts';
import { createDeps } from '../src/deps.ts';
import { prefixedId } from '../src/domain/ids.ts';
import { testOperator } from './support/audit.ts';
import { type MigrationDatabase, migrationDatabase } from './support/migration-database.ts';

/**
 * Migration 0023 moves each order's history from `order_events` into the row and drops the
 * priced_at trigger: an order written under 0022 must read the same afterwards, byte for byte.
 */
let db: MigrationDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await migrationDatabase('0023');
  pool = db.pool;
});
afterAll(() => db.drop());

describe('migration 0023 (history and JSON in the order row)', () => {
  it('carries every event of an order written before it, and its reads stay the same', async () => {
    await db.migrateBefore();
    const deps = createDeps(loadConfig({ DATABASE_URL: db.url }), pool);
    // Written as the store did then: the audit trail (0049) is not there yet.
    const brand = await storesOn(pool).brands.insert({
      id: prefixedId('brd'),
      name: 'Before 0023',
      defaultPickupAddress: '1 rue de Rivoli 75001 Paris',
    });
    // As the service wrote them then: the order (priced_at set by the trigger), then its events.
    await pool.query(
      `INSERT INTO orders (tracking_ref, brand_id, status, customer_email, service, unit_type, quantity, unit_weight_grams,
         delivery_address, delivery_postcode, delivery_city, delivery_zone, price_excl_tax_cents, vat_cents, price_cents,
         promised_date, created_at, updated_at)
       VALUES ('DLV-0000000001', $1, 'picked_up', 'a@example.com', 'standard', 'parcel', 1, 1000, '1 rue X 75011 Paris',
         '75011', 'Paris', 'paris', 700, 140, 840, '2026-01-02', '2026-11-01T10:00:00.123456Z', '2026-11-01T12:00:00Z')`,
      [brand.id],
    );
    await pool.query(
      `INSERT INTO order_events (order_id, status, note, at)
       SELECT id, 'pending', 'Order created', created_at FROM orders
       UNION ALL SELECT id, 'picked_up', 'Scanné « hub » "2"', updated_at FROM orders`,
    );

    await migrate(pool);
    const { rows } = await pool.query<{ history: string; priced: boolean; version: number | null }>(
      'SELECT history::text AS history, priced_at = created_at AS priced, json_version AS version FROM orders',
    );
    expect(rows).toEqual([
      {
        history:
          '[{"status":"pending","at":"2026-11-01T10:00:00.123Z","note":"Order created"},' +
          '{"status":"picked_up","at":"2026-11-01T12:00:00.000Z","note":"Scanné « hub » \\"2\\""}]',
        priced: true,
        version: null,
      },
    ]);
    const order = await deps.orders.getAnyBrand('DLV-0000000001', testOperator);
    expect(order.events.map((e) => e.status)).toEqual(['pending', 'picked_up']);
    const detail = JSON.stringify(deps.orders.detailJson(order));
    // Rendered from the columns until the job stores the text; the same bytes either way.
    expect(await deps.orders.getDetailJson(brand.id, order.trackingRef)).toBe(detail);
    expect(await deps.orders.refreshStoredJson()).toBe(1);
    expect(await deps.orders.getDetailJson(brand.id, order.trackingRef)).toBe(detail);
    // The next move appends to the carried history.
    const moved = await deps.orders.setStatus(order.trackingRef, 'in_transit', null, testOperator);
    expect(moved.events.map((e) => e.status)).toEqual(['pending', 'picked_up', 'in_transit']);
  });
});
