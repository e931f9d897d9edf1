import type { FastifyInstance } from 'fastify';
import type { Pool } from '../../src/db/pool.ts';
import { API, call, type TestBrand } from './app.ts';

export const VALID_ORDER = {
  customer_email: 'jane@example.com',
  delivery_address: '12 rue Oberkampf 75011 Paris',
  delivery_recipient: 'Jane Doe',
  delivery_phone: '06 12 34 56 78',
  amount_eur: 49.9,
};

export function createOrder(
  app: FastifyInstance,
  brand: TestBrand,
  body: object = VALID_ORDER,
  headers: Record<string, string> = {},
) {
  return call(app, {
    method: 'POST',
    url: `${API}/orders`,
    headers: { ...brand.headers, ...headers },
    payload: body,
  });
}

/** The footprint of a brand whose requests were all refused. */
export const NOTHING_STORED = { orders: 0, events: 0, webhooks: 0, keys: 0 };

/** What a brand has in the database: proof that a rejected request left nothing behind. */
export async function brandFootprint(pool: Pool, brandId: string) {
  const { rows } = await pool.query<{ orders: number; events: number; webhooks: number; keys: number }>(
    `SELECT (SELECT count(*)::int FROM orders WHERE brand_id = $1) AS orders,
            (SELECT count(*)::int FROM order_events e JOIN orders o ON o.id = e.order_id WHERE o.brand_id = $1) AS events,
            (SELECT count(*)::int FROM webhook_events WHERE brand_id = $1) AS webhooks,
            (SELECT count(*)::int FROM idempotency_keys WHERE brand_id = $1) AS keys`,
    [brandId],
  );
  return rows[0]!;
}
