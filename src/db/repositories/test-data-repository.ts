import type { DeletedTestData, TestDataStore } from '../../domain/test-mode/ports.ts';
import type { Queryable } from '../pool.ts';

/** The tables whose rows hang on an order (foreign keys to `orders`), children first. */
const ORDER_ROWS = [
  'delivery_attempts',
  'scans',
  'round_stops',
  'order_arrivals',
  'recipient_notifications',
  'recipient_codes',
  'recipient_choices',
  'connector_orders',
] as const;

/**
 * A test twin's rows. Only ever called with a twin's id: the statements re-check `live_brand_id IS
 * NOT NULL` so that a live brand's id deletes nothing whatever the caller passes.
 */
export function testDataRepository(db: Queryable): TestDataStore {
  const TWIN = 'SELECT id FROM brands WHERE id = $1 AND live_brand_id IS NOT NULL';
  const ORDERS = `SELECT id FROM orders WHERE brand_id IN (${TWIN})`;
  const ENDPOINTS = `SELECT id FROM webhook_endpoints WHERE brand_id IN (${TWIN})`;
  return {
    async deleteAll(twinBrandId: string): Promise<DeletedTestData> {
      // Test orders are never dispatched nor billed, so scans, stops and invoice lines should not
      // exist; they are deleted anyway rather than left to make the orders' deletion fail.
      for (const table of ORDER_ROWS)
        await db.query(`DELETE FROM ${table} WHERE order_id IN (${ORDERS})`, [twinBrandId]);
      const orders = await db.query(`DELETE FROM orders WHERE id IN (${ORDERS})`, [twinBrandId]);
      const deliveries = `SELECT id FROM webhook_deliveries WHERE endpoint_id IN (${ENDPOINTS})`;
      await db.query(`DELETE FROM webhook_attempts WHERE delivery_id IN (${deliveries})`, [twinBrandId]);
      const deleted = await db.query(`DELETE FROM webhook_deliveries WHERE id IN (${deliveries})`, [
        twinBrandId,
      ]);
      const endpoints = await db.query(`DELETE FROM webhook_endpoints WHERE id IN (${ENDPOINTS})`, [
        twinBrandId,
      ]);
      return {
        orders: orders.rowCount ?? 0,
        webhookEndpoints: endpoints.rowCount ?? 0,
        webhookDeliveries: deleted.rowCount ?? 0,
      };
    },
  };
}
