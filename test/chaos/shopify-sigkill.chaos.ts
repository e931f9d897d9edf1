import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { RECOVER_STALLED_JOBS } from '../../src/jobs/recover-stalled-jobs.ts';
import { testOperator } from '../support/audit.ts';
import { type FakeShopify, startFakeShopify } from '../support/fake-shopify.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { freePort, killApi, type RunningApi, sleep, useOwnedCluster } from './harness.ts';

const TOTAL = 100;
/** The service is killed as soon as this many webhooks have been acknowledged. */
const KILL_AFTER_ACKS = 30;
const KEY = 'chaos-client-id';
const SECRET = `shpss_${randomBytes(16).toString('hex')}`;
const CONNECTOR_KEY = randomBytes(32).toString('hex');

const { state, cleanup } = useOwnedCluster();

function serviceEnv(fake: FakeShopify, port: number) {
  return {
    DATABASE_URL: state.cluster.url,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_SECOND: '0',
    SHOPIFY_API_KEY: KEY,
    SHOPIFY_API_SECRET: SECRET,
    SHOPIFY_ADMIN_ORIGIN_TEMPLATE: fake.adminOriginTemplate,
    CONNECTORS_ALLOW_INSECURE: '1',
    CONNECTOR_SECRET_KEY: CONNECTOR_KEY,
  };
}

/** The operator's link (`dlv connectors shopify link`) with a token of the shop: it registers our webhooks. */
async function linkShop(env: Record<string, string>, fake: FakeShopify, shop: string) {
  const token = `shpat_${randomBytes(16).toString('hex')}`;
  fake.addShop(shop).accessTokens.push(token);
  const pool = createPool(state.cluster.url, 2);
  try {
    const deps = createDeps(loadConfig(env), pool);
    await deps.shopify!.linking.link({ brandId: state.brand.brandId, shop, token });
  } finally {
    await pool.end();
  }
}

describe('crash safety: the service killed with SIGKILL while 100 orders/paid webhooks arrive', () => {
  it('each paid order ends with exactly one delivery order, and one fulfillment once picked up, after Shopify’s retries', async () => {
    const fake = await startFakeShopify({ apiKey: KEY, apiSecret: SECRET });
    cleanup.push(() => fake.close());
    const port = await freePort();
    const env = serviceEnv(fake, port);
    let api: RunningApi = await spawnServer(env);
    cleanup.push(() => killApi(api));
    const shop = `chaos-${randomBytes(3).toString('hex')}.myshopify.com`;
    await linkShop(env, fake, shop);
    expect(fake.shop(shop).webhookSubscriptions).toHaveLength(3);

    const orders = Array.from({ length: TOTAL }, () =>
      fake.newOrder(shop, { shippingLine: { code: 'standard', source: 'Livraison DLV' } }),
    );
    const first = api;
    let acks = 0;
    let killed = false;
    const results = await Promise.all(
      orders.map(async (order) => {
        const result = await fake.sendWebhook(shop, 'orders/paid', order.payload);
        if (result.status === 200 && !killed && ++acks >= KILL_AFTER_ACKS) {
          killed = true;
          first.child.kill('SIGKILL');
        }
        return result;
      }),
    );
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    const unanswered = results.filter((r) => r.status !== 200).length;
    expect(unanswered, 'the kill left webhooks unanswered').toBeGreaterThan(0);

    const db = new pg.Client({ connectionString: state.cluster.url });
    await db.connect();
    cleanup.push(() => db.end());
    const { rows: clock } = await db.query('SELECT now() AS at');
    // Restart on the same address; Shopify retries what was not acknowledged (8 times over 4 hours).
    api = await spawnServer(env);
    for (let round = 0; round < 8; round++) {
      await fake.redeliverFailed();
      if (fake.deliveries.every((d) => d.attempts.at(-1)!.status === 200)) break;
      await sleep(500);
    }
    expect(fake.deliveries.filter((d) => d.attempts.at(-1)!.status !== 200)).toEqual([]);

    // Jobs the killed process held stay locked (graphile-worker's lock lasts 4 hours): time passes
    // beyond the recovery's grace period, and the recovery runs (every minute in production).
    const { rowCount: stale } = await db.query(
      `UPDATE graphile_worker._private_jobs SET locked_at = locked_at - interval '1 hour' WHERE locked_at < $1`,
      [clock[0].at],
    );
    await db.query('SELECT graphile_worker.add_job($1, $2::json)', [RECOVER_STALLED_JOBS.name, '{"v":1}']);

    // Every paid order has its delivery order; the parcels are picked up, which is what makes each
    // order's fulfillment on Shopify (nothing is sent before pickup).
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await db.query('SELECT count(*)::int AS n FROM connector_orders');
      if (rows[0].n === TOTAL || Date.now() > deadline) break;
      await sleep(250);
    }
    const operatorPool = createPool(state.cluster.url, 2);
    cleanup.push(() => operatorPool.end());
    const operator = createDeps(loadConfig(env), operatorPool);
    const { rows: refs } = await db.query('SELECT tracking_ref FROM orders WHERE brand_id = $1', [
      state.brand.brandId,
    ]);
    for (const { tracking_ref } of refs)
      await operator.orders.setStatus(tracking_ref, 'picked_up', null, testOperator);

    let counts = { orders: 0, fulfilled: 0 };
    for (;;) {
      const { rows } = await db.query(
        `SELECT count(*)::int AS orders, count(*) FILTER (WHERE fulfillment_id IS NOT NULL)::int AS fulfilled
           FROM connector_orders`,
      );
      counts = rows[0];
      if ((counts.orders === TOTAL && counts.fulfilled === TOTAL) || Date.now() > deadline) break;
      await sleep(250);
    }
    const perOrder = await db.query(
      `SELECT c.external_id, count(*)::int AS n FROM connector_orders c JOIN orders o ON o.id = c.order_id
        WHERE o.brand_id = $1 GROUP BY c.external_id`,
      [state.brand.brandId],
    );
    const { rows: all } = await db.query('SELECT count(*)::int AS n FROM orders WHERE brand_id = $1', [
      state.brand.brandId,
    ]);
    const fulfillments = fake.shop(shop).fulfillments;
    const fulfilledOrders = new Set(fulfillments.map((f) => f.orderGid));
    console.log(
      `[chaos] Shopify SIGKILL: ${TOTAL} orders/paid, killed after ${acks} acks, ${unanswered} unanswered, ` +
        `${fake.deliveries.reduce((n, d) => n + d.attempts.length, 0)} delivery attempts; stale job locks=${stale}; ` +
        `delivery orders=${all[0].n} fulfillments=${fulfillments.length}`,
    );

    expect(all[0].n).toBe(TOTAL);
    expect(perOrder.rows).toHaveLength(TOTAL);
    expect(perOrder.rows.every((r) => r.n === 1)).toBe(true);
    expect(new Set(perOrder.rows.map((r) => r.external_id))).toEqual(new Set(orders.map((o) => o.gid)));
    expect(counts).toEqual({ orders: TOTAL, fulfilled: TOTAL });
    expect(fulfilledOrders.size).toBe(TOTAL);
    // At most one fulfillment per order: a sync job run twice after the crash finds the first one.
    expect(fulfillments).toHaveLength(TOTAL);

    await killApi(api, 'SIGTERM');
  });
});
