import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobQueueOn } from '../src/infra/queue/job-queue.ts';
import { testOperator } from './support/audit.ts';
import type { ConformanceAdapter, ShopUnderTest } from './support/conformance/adapter.ts';
import { prestashopAdapter } from './support/conformance/prestashop.ts';
import { shopifyAdapter } from './support/conformance/shopify.ts';
import { wooCommerceAdapter } from './support/conformance/woocommerce.ts';
import { lastAttemptNow } from './support/queued-jobs.ts';

/**
 * What every shop connector promises, checked the same way on each platform through its fake shop
 * (the real service, its worker and PostgreSQL; the adapters in test/support/conformance/). A new
 * platform adds its adapter to this list. A worker killed mid-sync (SIGKILL), the shop still hearing
 * each move exactly once, is the chaos tests' (test/chaos/shopify-sigkill.chaos.ts,
 * test/chaos/woocommerce-sigkill.chaos.ts: `npm run test:chaos`). The per-platform tests keep what
 * is the platform's own (linking, its API's quirks).
 */
const ADAPTERS: ConformanceAdapter[] = [shopifyAdapter, wooCommerceAdapter, prestashopAdapter];

/** Waits until `check` gives something truthy (the worker runs the jobs). */
async function eventually<T>(
  check: () => Promise<T> | T,
  what: string,
  timeoutMs = 15_000,
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(ADAPTERS)('the $platform connector', (adapter) => {
  let s: ShopUnderTest;

  beforeAll(async () => {
    s = await adapter.start();
  });
  afterAll(async () => {
    await s?.close();
  });

  const deliveryOrders = async (order: unknown) => {
    const { rows } = await s.t.pool.query<{ tracking_ref: string }>(
      `SELECT o.tracking_ref FROM connector_orders c JOIN orders o ON o.id = c.order_id
        WHERE c.connection_id = $1 AND c.external_id = $2`,
      [s.connectionId, s.externalId(order)],
    );
    return rows.map((r) => r.tracking_ref);
  };
  const stored = async () =>
    (await s.t.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM connector_inbox')).rows[0]!.n;
  const allProcessed = async () =>
    (
      await s.t.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM connector_inbox WHERE processed_at IS NULL',
      )
    ).rows[0]!.n === 0;
  /** The status jobs still to run (failed for good ones aside). */
  const syncJobsLeft = async () =>
    (await jobQueueOn(s.t.pool).list({ task: s.syncJob }, 10_000)).filter((j) => j.attempts < j.maxAttempts);
  /** A paid order shipped with us, sent by the shop; resolves to its delivery order once the shop has heard of it. */
  async function received() {
    const order = s.newOrder();
    expect(await s.send(order)).toBe(200);
    const [ref] = await eventually(async () => {
      const refs = await deliveryOrders(order);
      return refs.length > 0 && refs;
    }, 'the delivery order');
    await eventually(async () => (await syncJobsLeft()).length === 0, 'the status jobs done');
    return { order, ref: ref! };
  }
  const walk = async (ref: string) => {
    for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'])
      await s.t.deps.orders.setStatus(ref, status, null, testOperator);
  };
  const link = () => s.t.deps.connections.get(s.brandId, s.connectionId);

  it('answers 401 to a forged or missing signature, and stores nothing', async () => {
    const order = s.newOrder();
    const before = await stored();
    expect(await s.send(order, 'forged')).toBe(401);
    expect(await s.send(order, 'missing')).toBe(401);
    expect(await stored()).toBe(before);
    await sleep(200);
    expect(await deliveryOrders(order)).toEqual([]);
  });

  it('makes one delivery order of a shop order delivered three times at once', async () => {
    const order = s.newOrder();
    expect(await Promise.all([s.send(order), s.send(order), s.send(order)])).toEqual([200, 200, 200]);
    await eventually(async () => (await deliveryOrders(order)).length > 0, 'the delivery order');
    await eventually(allProcessed, 'every delivery processed');
    expect(await deliveryOrders(order)).toHaveLength(1);
  });

  it('makes nothing of an order not shipped with our method', async () => {
    const order = s.newOrder({ ours: false });
    expect(await s.send(order)).toBe(200);
    await eventually(allProcessed, 'the delivery processed');
    expect(await deliveryOrders(order)).toEqual([]);
    expect(s.heard(order)).toEqual([]);
  });

  it('tells the shop of each move, in order, once', async () => {
    const { order, ref } = await received();
    await walk(ref);
    await eventually(() => s.heard(order).length >= s.walkHeard.length, 'the shop hearing the walk');
    await eventually(async () => (await syncJobsLeft()).length === 0, 'the status jobs done');
    expect(s.heard(order)).toEqual(s.walkHeard);
  });

  it('retries while the shop is down, and reports what it gave up on', async () => {
    const { ref } = await received();
    s.setShop('down');
    try {
      await walk(ref);
      const failed = await eventually(async () => {
        const jobs = (await syncJobsLeft()).filter((j) => j.lastError !== null);
        return jobs.length > 0 && jobs;
      }, 'a failed attempt, to retry');
      expect(failed[0]!.lastError).toMatch(/503/);
      // Three days of backoff later, the last attempt fails too: the brand sees what the shop missed.
      expect(await lastAttemptNow(s.t.pool, s.syncJob)).toBeGreaterThan(0);
      const problem = await eventually(async () => {
        const problems = await s.t.deps.connections.problems({
          brandId: s.brandId,
          connectionId: s.connectionId,
        });
        return problems.find((p) => p.details.code === 'update_not_sent' && p.details.tracking_ref === ref);
      }, 'the problem reported');
      expect(problem.kind).toBe('sync_failed');
      expect((await link()).status).toBe('active');
    } finally {
      s.setShop('up');
    }
  });

  it('breaks the link when the shop refuses our credentials, and says so', async () => {
    const { ref } = await received();
    s.setShop('revoked');
    try {
      await walk(ref);
      const broken = await eventually(async () => {
        const current = await link();
        return current.status === 'broken' && current;
      }, 'the link broken');
      expect(broken.statusReason).toMatch(/401/);
    } finally {
      s.setShop('up');
    }
  });
});
