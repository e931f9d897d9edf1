import { expect } from 'vitest';
import { SHOPIFY_SYNC_ORDER } from '../../src/connectors/shopify/jobs/sync-order.ts';
import { jobQueueOn } from '../../src/infra/queue/job-queue.ts';
import { type Runner, startWorker } from '../../src/worker.ts';
import { Browser, createUser, PASSWORD } from './account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './app.ts';
import { type FakeShopify, startFakeShopify } from './fake-shopify.ts';
import { onPickedPort } from './picked-port.ts';
import { makeDueNow } from './queued-jobs.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { authorizeHref, newShop, SHOPIFY_KEY, SHOPIFY_SECRET, shopifyConfig } from './shopify.ts';
import { eventually } from './webhook-receiver.ts';

/**
 * The service and the fake Shopify meeting for real: the app listens on a loopback port (the fake
 * POSTs webhooks and rate requests to it), its admin origin is the fake's, and a graphile worker
 * runs the connector's jobs. Shops are linked the way a merchant links one: through the account
 * area and the OAuth redirect.
 */
export interface LiveShopify {
  t: TestApp;
  fake: FakeShopify;
  base: string;
  runner: Runner;
  close(): Promise<void>;
}

export async function startLiveShopify(): Promise<LiveShopify> {
  const scratch = await createScratchDatabase();
  const { t, fake, base } = await onPickedPort(async (port) => {
    const base = `http://127.0.0.1:${port}`;
    const fake = await startFakeShopify({
      apiKey: SHOPIFY_KEY,
      apiSecret: SHOPIFY_SECRET,
      privacyWebhookUrl: `${base}/connectors/shopify/webhooks`,
    });
    const t = await buildTestApp({
      config: {
        ...shopifyConfig({ adminOriginTemplate: fake.adminOriginTemplate }),
        databaseUrl: scratch.url,
        publicBaseUrl: base,
      },
    });
    return {
      value: { t, fake, base },
      listen: () => t.app.listen({ port, host: '127.0.0.1' }),
      close: async () => {
        await t.close();
        await fake.close();
      },
    };
  });
  const runner = await startWorker(t.deps, { concurrency: 4, pollIntervalMs: 50 });
  return {
    t,
    fake,
    base,
    runner,
    async close() {
      await runner.stop();
      await fake.close();
      await t.close();
      await scratch.drop();
    },
  };
}

let ips = 0;

/** A brand (API key, pickup address) whose owner installs the app on a new shop of the fake. */
export async function installShop(live: LiveShopify, brand?: TestBrand) {
  const { t, fake } = live;
  const owner = brand ?? (await createBrandWithKey(t.deps));
  const user = await createUser(t.deps, { brandId: owner.brandId });
  const browser = new Browser(t.app, `10.77.${Math.floor(++ips / 250)}.${ips % 250}`);
  expect((await browser.signIn(user.email, PASSWORD)).status).toBe(303);
  const shop = newShop();
  fake.addShop(shop);
  const started = await browser.submit('/account/shops', '/account/shops/connect', { shop });
  expect(started.status, started.body).toBe(200);
  // The merchant approves on Shopify, which redirects their browser to our callback.
  const callback = new URL(fake.approve(authorizeHref(started.body)));
  expect(callback.origin).toBe(live.base);
  const done = await browser.get(`${callback.pathname}${callback.search}`);
  expect(done.status, done.body).toBe(303);
  const { rows } = await t.pool.query(
    "SELECT id FROM connector_connections WHERE shop = $1 AND status = 'active'",
    [shop],
  );
  expect(rows).toHaveLength(1);
  return { brand: owner, shop, connectionId: rows[0].id as string, browser };
}

/** A paid order shipped with our `standard` service (the carrier service's rate chosen at checkout). */
export function paidOrder(
  live: LiveShopify,
  shop: string,
  overrides: Parameters<FakeShopify['newOrder']>[1] = {},
) {
  return live.fake.newOrder(shop, {
    shippingLine: { code: 'standard', source: 'Livraison DLV', title: 'Livraison DLV — Standard' },
    ...overrides,
  });
}

/** The delivery orders made for a Shopify order (by its gid). */
export async function deliveryOrdersOf(t: TestApp, gid: string) {
  const { rows } = await t.pool.query(
    `SELECT o.*, c.fulfillment_id FROM connector_orders c JOIN orders o ON o.id = c.order_id
      WHERE c.external_id = $1`,
    [gid],
  );
  return rows;
}

/** Waits for exactly one delivery order for `gid` and returns it. */
export async function oneDeliveryOrder(t: TestApp, gid: string) {
  const rows = await eventually(async () => {
    const found = await deliveryOrdersOf(t, gid);
    return found.length > 0 && found;
  });
  expect(rows).toHaveLength(1);
  return rows[0];
}

/** The fulfillments the fake holds for an order. */
export const fulfillmentsOf = (fake: FakeShopify, shop: string, gid: string) =>
  fake.shop(shop).fulfillments.filter((f) => f.orderGid === gid);

/**
 * Graphile runs a failed job again after its backoff (e^attempts seconds): this runs the
 * connector's waiting sync jobs now instead, as the queue would later.
 */
export async function runSyncJobsNow(t: TestApp): Promise<number> {
  return makeDueNow(t.pool, SHOPIFY_SYNC_ORDER.name, { onlyLater: true });
}

/** The sync jobs still queued (to retry or deferred), with their attempts and last error. */
export async function pendingSyncJobs(t: TestApp) {
  const jobs = await jobQueueOn(t.pool).list({ task: SHOPIFY_SYNC_ORDER.name }, 10_000);
  return jobs
    .filter((j) => j.attempts < j.maxAttempts)
    .map((j) => ({
      attempts: j.attempts,
      max_attempts: j.maxAttempts,
      last_error: j.lastError,
      payload: j.payload,
    }));
}
