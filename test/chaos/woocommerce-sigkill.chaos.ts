import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { WOOCOMMERCE_POLL } from '../../src/connectors/woocommerce/jobs/poll.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { RECOVER_STALLED_JOBS } from '../../src/jobs/recover-stalled-jobs.ts';
import { type FakeWooCommerce, startFakeWooCommerce } from '../support/fake-woocommerce.ts';
import { spawnServer } from '../support/spawn-server.ts';
import { OUR_SHIPPING } from '../support/woocommerce.ts';
import { freePort, killApi, type RunningApi, sleep, useOwnedCluster } from './harness.ts';

const TOTAL = 60;
/** The service is killed as soon as this many webhook deliveries have been acknowledged. */
const KILL_AFTER_ACKS = 20;
const CONNECTOR_KEY = randomBytes(32).toString('hex');
const SLUG = 'chaos-woo';

const { state, cleanup } = useOwnedCluster();

function serviceEnv(port: number) {
  return {
    DATABASE_URL: state.cluster.url,
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_PER_SECOND: '0',
    CONNECTOR_SECRET_KEY: CONNECTOR_KEY,
    CONNECTORS_ALLOW_INSECURE: '1',
  };
}

/** The operator's link (`dlv connectors woocommerce link`) with a key pair of the store: it creates our webhooks. */
async function linkStore(env: Record<string, string>, fake: FakeWooCommerce) {
  const key = fake.createKey(SLUG);
  const pool = createPool(state.cluster.url, 2);
  try {
    const deps = createDeps(loadConfig(env), pool);
    return await deps.woocommerce!.linking.link({
      brandId: state.brand.brandId,
      url: fake.url(SLUG),
      consumerKey: key.consumerKey,
      consumerSecret: key.consumerSecret,
    });
  } finally {
    await pool.end();
  }
}

/** A job as its schedule would enqueue it (cron), run by the service's worker. */
const enqueue = (db: pg.Client, job: { name: string }) =>
  db.query('SELECT graphile_worker.add_job($1, $2::json)', [job.name, '{"v":1}']);

async function waitFor<T>(check: () => Promise<T | null>, deadline: number): Promise<T | null> {
  for (;;) {
    const value = await check();
    if (value !== null || Date.now() > deadline) return value;
    await sleep(200);
  }
}

describe('crash safety: WooCommerce — the service killed mid-sync, the shop down, webhooks lost', () => {
  it('the poll recovers every paid order exactly once, each with its tracking back on the shop', async () => {
    const fake = await startFakeWooCommerce({ deliveryTimeoutMs: 5000 });
    cleanup.push(() => fake.close());
    const port = await freePort();
    const env = serviceEnv(port);
    let api: RunningApi = await spawnServer(env);
    cleanup.push(() => killApi(api));
    const shop = fake.addShop(SLUG, { shipmentTracking: true });
    const connection = await linkStore(env, fake);
    expect(shop.webhooks.map((h) => h.status)).toEqual(['active', 'active']);

    const orders = Array.from({ length: TOTAL }, () =>
      fake.createOrder(SLUG, { shippingLine: OUR_SHIPPING() }),
    );
    // WooCommerce's queue runner posts the webhooks one after another; the service dies mid-way, with
    // delivery-order and status-sync jobs under way. WooCommerce never retries: the rest are lost.
    const first = api;
    const acked = () =>
      shop.deliveries.filter((d) => d.kind === 'delivery' && d.result.status === 200).length;
    const flushing = fake.flushWebhooks(SLUG);
    while (acked() < KILL_AFTER_ACKS && first.child.exitCode === null) await sleep(1);
    first.child.kill('SIGKILL');
    await first.exited;
    await flushing;
    expect(first.child.signalCode).toBe('SIGKILL');
    const deliveries = shop.deliveries.filter((d) => d.kind === 'delivery');
    const acks = acked();
    const failed = deliveries.length - acks;
    const lost = TOTAL - acks;
    expect(lost, 'the kill left orders whose webhook never arrived').toBeGreaterThan(0);
    // After a run of failed deliveries, WooCommerce disabled our webhook (the poll reactivates it).
    const createdHook = shop.webhooks.find((h) => h.topic === 'order.created')!;
    const disabled = createdHook.status === 'disabled';

    const db = new pg.Client({ connectionString: state.cluster.url });
    await db.connect();
    cleanup.push(() => db.end());
    const { rows: clock } = await db.query('SELECT now() AS at');

    // The service comes back while the shop is down (maintenance: 503 to everything, no webhooks):
    // jobs that read the order or write the tracking back fail and wait out the queue's backoff.
    fake.setMode(SLUG, 'down');
    api = await spawnServer(env);
    // Jobs the killed process held stay locked (graphile-worker's lock lasts 4 hours): time passes
    // beyond the recovery's grace period (the dead worker's heartbeat goes silent), and the recovery
    // runs, as its every-minute schedule would.
    const { rowCount: stale } = await db.query(
      `UPDATE graphile_worker._private_jobs SET locked_at = locked_at - interval '1 hour' WHERE locked_at < $1`,
      [clock[0].at],
    );
    await db.query(`UPDATE worker_heartbeats SET beat_at = beat_at - interval '1 hour' WHERE beat_at < $1`, [
      clock[0].at,
    ]);
    await enqueue(db, RECOVER_STALLED_JOBS);
    await enqueue(db, WOOCOMMERCE_POLL);
    const downError = await waitFor(async () => {
      const { rows } = await db.query('SELECT sync_error FROM connector_connections WHERE id = $1', [
        connection.id,
      ]);
      return rows[0].sync_error as string | null;
    }, Date.now() + 15_000);
    expect(downError, 'the poll records the shop down in the link health').toMatch(/503/);
    // The jobs the recovery freed run into the maintenance page too.
    const retrying = (await waitFor(async () => {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j
           JOIN graphile_worker._private_tasks t ON t.id = j.task_id
          WHERE t.identifier LIKE 'woocommerce_%' AND j.attempts > 0 AND j.last_error IS NOT NULL`,
      );
      return rows[0].n > 0 ? rows : null;
    }, Date.now() + 20_000)) ?? [{ n: 0 }];

    // The shop is back. Time passes beyond the failed jobs' backoff, and the poll's schedule comes round.
    fake.setMode(SLUG, 'up');
    await db.query(
      `UPDATE graphile_worker._private_jobs SET run_at = now() WHERE run_at > now() AND last_error IS NOT NULL`,
    );
    await enqueue(db, WOOCOMMERCE_POLL);

    const ids = orders.map((o) => o.id);
    const tracked = (id: number) =>
      (shop.trackings.get(id) ?? []).length > 0 && shop.notes.some((n) => n.orderId === id);
    const deadline = Date.now() + 30_000;
    let linked = 0;
    await waitFor(async () => {
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM connector_orders WHERE connection_id = $1',
        [connection.id],
      );
      linked = rows[0].n;
      if (linked === TOTAL && ids.every(tracked)) return true;
      // A job that failed again meanwhile (its next run after the shop came up) is not waited for.
      await db.query(
        `UPDATE graphile_worker._private_jobs SET run_at = now() WHERE run_at > now() AND last_error IS NOT NULL`,
      );
      return null;
    }, deadline);

    const perOrder = await db.query(
      `SELECT c.external_id, count(*)::int AS n FROM connector_orders c JOIN orders o ON o.id = c.order_id
        WHERE o.brand_id = $1 GROUP BY c.external_id`,
      [state.brand.brandId],
    );
    const { rows: all } = await db.query('SELECT count(*)::int AS n FROM orders WHERE brand_id = $1', [
      state.brand.brandId,
    ]);
    const { rows: health } = await db.query(
      'SELECT sync_error, last_synced_at FROM connector_connections WHERE id = $1',
      [connection.id],
    );
    const { rows: problems } = await db.query('SELECT kind, message FROM connector_problems');
    const entries = ids.map((id) => (shop.trackings.get(id) ?? []).length);
    const notes = ids.map((id) => shop.notes.filter((n) => n.orderId === id).length);
    console.log(
      `[chaos] WooCommerce SIGKILL: ${TOTAL} paid orders, killed after ${acks} acks, ${failed} deliveries ` +
        `failed, ${lost} webhooks lost, order.created webhook ${disabled ? 'disabled' : 'still active'}; ` +
        `stale job locks=${stale}; jobs retried while the shop was down=${retrying[0].n}; ` +
        `delivery orders=${all[0].n} linked=${linked} tracking entries=${entries.reduce((a, b) => a + b, 0)} ` +
        `creation notes=${notes.reduce((a, b) => a + b, 0)}`,
    );

    expect(retrying[0].n, 'jobs ran into the maintenance page and were retried').toBeGreaterThan(0);
    expect(problems).toEqual([]);
    expect(all[0].n).toBe(TOTAL);
    expect(perOrder.rows).toHaveLength(TOTAL);
    expect(perOrder.rows.every((r) => r.n === 1)).toBe(true);
    expect(new Set(perOrder.rows.map((r) => r.external_id))).toEqual(new Set(ids.map(String)));
    // Exactly one tracking entry and one creation note per order, even for a status job run twice.
    expect(entries).toEqual(ids.map(() => 1));
    expect(notes).toEqual(ids.map(() => 1));
    // The poll reactivated the webhook WooCommerce disabled, and the link is healthy again.
    expect(createdHook.status).toBe('active');
    expect(health[0].sync_error).toBeNull();

    await killApi(api, 'SIGTERM');
  });
});
