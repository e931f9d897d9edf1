import { expect } from 'vitest';
import type { Connection } from '../../src/connectors/connection.ts';
import type { FakePrestaShop, PsShop } from './fake-prestashop.ts';
import type { LiveApi } from './live-api.ts';
import { makeDueNow } from './queued-jobs.ts';

/** A PrestaShop shop of the fake, linked to a brand of the live API with a Webservice key. */
export interface LinkedPrestaShop {
  slug: string;
  shop: PsShop;
  connection: Connection;
  secret: string;
  /** Where the module pushes: the live API's /connectors/prestashop/orders. */
  pushUrl: string;
}

let shops = 0;

export async function linkPrestaShop(
  live: LiveApi,
  fake: FakePrestaShop,
  brandId: string,
  options: { withKey?: boolean } = {},
): Promise<LinkedPrestaShop> {
  const slug = `boutique-${process.pid}-${++shops}`;
  const shop = fake.addShop(slug);
  const key = fake.createKey(slug).key;
  const { connection, secret } = await live.t.deps.prestashop.linking.link({
    brandId,
    url: fake.url(slug),
    key: options.withKey === false ? undefined : key,
  });
  return { slug, shop, connection, secret, pushUrl: pushUrlOf(live) };
}

export const pushUrlOf = (live: LiveApi) =>
  `${live.base.replace(/\/public\/v1$/, '')}/connectors/prestashop/orders`;

/** Pushes an order as the module does; expects 200. */
export async function push(
  fake: FakePrestaShop,
  linked: LinkedPrestaShop,
  orderId: number,
  event: 'order.paid' | 'order.cancelled' = 'order.paid',
  options: { deliveryId?: string } = {},
) {
  const sent = await fake.pushOrder(
    linked.pushUrl,
    { connectionId: linked.connection.id, secret: linked.secret },
    fake.pushPayload(linked.slug, orderId, event),
    options,
  );
  expect(sent.status, sent.body).toBe(200);
  return sent;
}

/** Waits until `check` returns a value other than undefined/null/false (the worker runs the jobs). */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 10_000,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until the bridge has processed every push the shop's link received. */
export async function everyPushProcessed(live: LiveApi, linked: LinkedPrestaShop) {
  await eventually(async () => {
    const { rows } = await live.t.pool.query(
      'SELECT count(*)::int AS n FROM connector_inbox WHERE shop = $1 AND processed_at IS NULL',
      [linked.connection.shop],
    );
    return rows[0].n === 0;
  }, 'every push processed');
}

/** The delivery orders made from this shop order. */
export async function deliveryOrdersOf(live: LiveApi, connectionId: string, orderId: number) {
  const { rows } = await live.t.pool.query<{ tracking_ref: string; status: string; service: string }>(
    `SELECT o.tracking_ref, o.status, o.service FROM connector_orders c JOIN orders o ON o.id = c.order_id
      WHERE c.connection_id = $1 AND c.external_id = $2`,
    [connectionId, String(orderId)],
  );
  return rows;
}

/** Jobs waiting for a retry run now (graphile-worker's backoff is seconds to hours). */
export async function runRetriesNow(live: LiveApi, task: string) {
  await makeDueNow(live.t.pool, task);
}
