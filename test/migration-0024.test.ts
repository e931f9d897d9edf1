import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../src/db/pool.ts';
import { type MigrationDatabase, migrationDatabase } from './support/migration-database.ts';

/**
 * Migration 0024 moves the orders' single-column rules from table CHECK constraints to domains: the
 * rows and indexes stay as they are (no rewrite; one expression index rebuilt), and every rule refuses what it refused before,
 * with the same SQLSTATE and, but for the three price columns now sharing one, the same name.
 */
let db: MigrationDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await migrationDatabase('0024');
  pool = db.pool;
});
afterAll(() => db.drop());

const storage = async () =>
  (
    await pool.query<{ name: string; file: string }>(
      `SELECT c.relname AS name, c.relfilenode::text AS file FROM pg_class c
        WHERE c.relname = 'orders' OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = 'orders'::regclass)
        ORDER BY c.relname`,
    )
  ).rows;

describe('migration 0024 (order rules as domains)', () => {
  it('keeps the rows and indexes in place, and every rule still refuses a bad value', async () => {
    await db.migrateBefore();
    await pool.query(`INSERT INTO brands (id, name) VALUES ('brd_0000000000000024', 'Before 0024')`);
    await pool.query(
      `INSERT INTO orders (tracking_ref, tracking_token, brand_id, status, reference, customer_email, amount_cents,
         service, unit_type, quantity, unit_weight_grams, delivery_address, delivery_postcode, delivery_city,
         delivery_zone, price_excl_tax_cents, vat_cents, price_cents, promised_date, created_at, updated_at, priced_at,
         history)
       VALUES ('DLV-0000000001', 'tok_0024_aaaaaaaaaaaaa', 'brd_0000000000000024', 'pending', 'R-1', 'a@example.com', 1250,
         'standard', 'parcel', 2, 1000, '1 rue X 75011 Paris', '75011', 'Paris', 'paris', 700, 140, 840,
         '2026-01-02', '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z', '[]')`,
    );
    const row = async () => (await pool.query('SELECT * FROM orders')).rows[0];
    const [rowBefore, storageBefore] = [await row(), await storage()];

    // 0024 alone (later migrations change other indexes).
    await db.migrateIt();
    expect(await row()).toEqual(rowBefore);
    // Rebuilt: only the index on an expression of a changed column (`reference COLLATE "C"`).
    const rebuilt = (await storage()).filter((s, i) => s.file !== storageBefore[i]!.file).map((s) => s.name);
    expect(rebuilt).toEqual(['orders_brand_reference_idx']);
    const { rows: tableChecks } = await pool.query<{ conname: string }>(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'orders'::regclass AND contype = 'c' ORDER BY conname`,
    );
    expect(tableChecks.map((c) => c.conname)).toEqual(['orders_check', 'orders_priced_when_priced']);

    const refusals: Array<[string, string, string]> = [
      ['tracking_ref', "'DLV-000000000I'", 'orders_tracking_ref_check'],
      ['status', "'lost'", 'orders_status_check'],
      ['reference', 'repeat($$x$$, 101)', 'orders_reference_check'],
      ['amount_cents', '-1', 'orders_amount_cents_check'],
      ['delivery_zone', "'lyon'", 'orders_delivery_zone_check'],
      ['service', "'overnight'", 'orders_service_check'],
      ['unit_type', "'crate'", 'orders_unit_type_check'],
      ['quantity', '0', 'orders_quantity_check'],
      ['quantity', '1001', 'orders_quantity_check'],
      ['unit_weight_grams', '0', 'orders_unit_weight_grams_check'],
      ['price_excl_tax_cents', '-1', 'orders_cents_check'],
      ['vat_cents', '-1', 'orders_cents_check'],
      ['price_cents', '-1', 'orders_cents_check'],
    ];
    for (const [column, value, constraint] of refusals) {
      // As a literal and as a bound parameter (how the service writes).
      await expect(pool.query(`UPDATE orders SET ${column} = ${value}`)).rejects.toMatchObject({
        code: '23514',
        constraint,
      });
      const bound = (await pool.query(`SELECT (${value})::text AS v`)).rows[0].v;
      await expect(pool.query(`UPDATE orders SET ${column} = $1`, [bound])).rejects.toMatchObject({
        code: '23514',
        constraint,
      });
    }
    // The rules that compare columns are still the table's.
    await expect(pool.query('UPDATE orders SET priced_at = NULL')).rejects.toMatchObject({
      code: '23514',
      constraint: 'orders_priced_when_priced',
    });
    await expect(pool.query('UPDATE orders SET delivery_zone = NULL')).rejects.toMatchObject({
      code: '23514',
      constraint: 'orders_check',
    });
    // What the rules allow still goes through, and reads back as the base types.
    await pool.query(
      `UPDATE orders SET status = $1, reference = NULL, quantity = $2, service = 'express', price_cents = 0`,
      ['delivered', 1000],
    );
    expect(await row()).toMatchObject({
      status: 'delivered',
      reference: null,
      quantity: 1000,
      price_cents: 0,
    });
    expect(rowBefore).toMatchObject({ amount_cents: 1250, quantity: 2, price_cents: 840 });
  });
});
