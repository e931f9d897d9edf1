import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Pool } from '../../src/db/pool.ts';
import { EVENT_TYPES } from '../../src/events/catalogue.ts';
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
            (SELECT coalesce(sum(json_array_length(history)), 0)::int FROM orders WHERE brand_id = $1) AS events,
            (SELECT count(*)::int FROM outbox_events WHERE brand_id = $1) AS webhooks,
            (SELECT count(*)::int FROM idempotency_keys WHERE brand_id = $1) AS keys`,
    [brandId],
  );
  return rows[0]!;
}

/**
 * Gives the brand a webhook endpoint (written straight to the table, so no URL check or DNS is
 * involved): events are written to the outbox only for brands someone listens to.
 */
export async function subscribeToWebhooks(pool: Pool, brandId: string): Promise<string> {
  const id = `whk_${randomBytes(8).toString('hex')}`;
  await pool.query(
    `INSERT INTO webhook_endpoints (id, brand_id, url, event_types, secret, created_at, updated_at)
     VALUES ($1, $2, 'https://hooks.example.com/in', $3, 'whsec_dGVzdA==', now(), now())`,
    [id, brandId, EVENT_TYPES],
  );
  return id;
}
