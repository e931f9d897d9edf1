import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobQueueOn } from '../src/infra/queue/job-queue.ts';
import { RECOVER_STALLED_JOBS } from '../src/jobs/recover-stalled-jobs.ts';
import { testOperator } from './support/audit.ts';
import { holdAsDeadWorker } from './support/queued-jobs.ts';
import {
  deliveryOrdersOf,
  fulfillmentsOf,
  installShop,
  type LiveShopify,
  oneDeliveryOrder,
  paidOrder,
  pendingSyncJobs,
  runSyncJobsNow,
  startLiveShopify,
} from './support/shopify-live.ts';
import { eventually, sleep } from './support/webhook-receiver.ts';

/**
 * What goes wrong between the service and Shopify, against the fake: forged webhooks, Shopify down
 * or throttling (retried later, nothing lost), orders we cannot deliver, a revoked token.
 */
let live: LiveShopify;

beforeAll(async () => {
  live = await startLiveShopify();
});
afterEach(() => live.fake.setMode('up'));
afterAll(() => live?.close());

const callsOf = (shop: string, operation: string) =>
  live.fake.shop(shop).calls.filter((c) => c.operation === operation);

/** A paid order sent by the fake; resolves to its delivery order once the webhook is processed. */
async function paidAndReceived(shop: string) {
  const order = paidOrder(live, shop);
  expect((await live.fake.sendWebhook(shop, 'orders/paid', order.payload)).status).toBe(200);
  return { order, delivery: await oneDeliveryOrder(live.t, order.gid) };
}

/** A paid order received and then picked up: the pickup is what makes our fulfillment on the shop. */
async function pickedUp(shop: string) {
  const received = await paidAndReceived(shop);
  await live.t.deps.orders.setStatus(received.delivery.tracking_ref, 'picked_up', null, testOperator);
  return received;
}

const oneFulfillment = async (shop: string, gid: string) => {
  await eventually(async () => fulfillmentsOf(live.fake, shop, gid).length > 0, 15_000);
  // Nothing arrives twice, however many attempts it took.
  await sleep(200);
  expect(fulfillmentsOf(live.fake, shop, gid)).toHaveLength(1);
};

describe('signatures', () => {
  it('answers 401 to a webhook whose body does not match its HMAC, and stores nothing', async () => {
    const { shop } = await installShop(live);
    const order = paidOrder(live, shop);
    await live.fake.sendWebhook(shop, 'orders/paid', order.payload);
    const genuine = live.fake.deliveries.at(-1)!;
    const forged = genuine.body.replace('"total_price":"62.70"', '"total_price":"0.01"');
    expect(forged).not.toBe(genuine.body);
    const webhookId = `forged-${order.id}`;
    const res = await fetch(genuine.url, {
      method: 'POST',
      headers: { ...genuine.headers, 'Content-Type': 'application/json', 'X-Shopify-Webhook-Id': webhookId },
      body: forged,
    });
    expect(res.status).toBe(401);
    const { rows } = await live.t.pool.query('SELECT 1 FROM connector_inbox WHERE delivery_id = $1', [
      webhookId,
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe('Shopify unavailable', () => {
  it('Shopify down (503): the fulfillment job fails, is retried later, and the fulfillment arrives once', async () => {
    const { shop } = await installShop(live);
    live.fake.setMode('down');
    const { order } = await pickedUp(shop);
    const [job] = await eventually(async () => {
      const jobs = await pendingSyncJobs(live.t);
      // Graphile counts the attempt when it takes the job, and records the error when it fails.
      const failed = jobs.filter((j) => j.last_error !== null);
      return failed.length > 0 && failed;
    });
    expect(job!.last_error).toMatch(/503/);
    expect(fulfillmentsOf(live.fake, shop, order.gid)).toHaveLength(0);

    live.fake.setMode('up');
    expect(await runSyncJobsNow(live.t)).toBeGreaterThan(0);
    await oneFulfillment(shop, order.gid);
    await eventually(async () => (await pendingSyncJobs(live.t)).length === 0);
  });

  it('an order cancelled on the shop before its fulfillment could be made: nothing sent, no job left retrying', async () => {
    const { shop } = await installShop(live);
    live.fake.setMode('down');
    const { order } = await paidAndReceived(shop);
    // The merchant cancels it meanwhile: its fulfillment orders close, our delivery order is cancelled.
    const cancelled = live.fake.cancelOrder(shop, order.gid);
    expect((await live.fake.sendWebhook(shop, 'orders/cancelled', cancelled)).status).toBe(200);
    await eventually(async () => (await deliveryOrdersOf(live.t, order.gid))[0]?.status === 'cancelled');
    live.fake.setMode('up');
    await runSyncJobsNow(live.t);
    await eventually(async () => (await pendingSyncJobs(live.t)).length === 0, 15_000);
    expect(fulfillmentsOf(live.fake, shop, order.gid)).toHaveLength(0);
    expect(callsOf(shop, 'fulfillmentEventCreate')).toHaveLength(0);
  });

  it.each([
    ['throttled (THROTTLED errors, an empty bucket)', 'throttled' as const, 'throttled'],
    ['rate-limited (429 with Retry-After)', 'rate-limited' as const, 'rate-limited'],
  ])(
    '%s: the job waits for Shopify’s refill and the fulfillment arrives once',
    async (_label, mode, outcome) => {
      const { shop } = await installShop(live);
      live.fake.setMode(mode);
      const { order } = await pickedUp(shop);
      await eventually(async () => live.fake.shop(shop).calls.some((c) => c.outcome === outcome));
      await sleep(500);
      expect(fulfillmentsOf(live.fake, shop, order.gid)).toHaveLength(0);
      live.fake.setMode('up');
      // No one reschedules anything: the job put itself off to the time Shopify gave.
      await oneFulfillment(shop, order.gid);
      await eventually(async () => (await pendingSyncJobs(live.t)).length === 0);
    },
  );
});

describe('a worker killed mid-job', () => {
  it('its Shopify job, locked for graphile’s 4 hours, runs again once the recovery sees it stalled', async () => {
    const { t, fake } = live;
    const { shop } = await installShop(live);
    fake.setMode('down');
    const { order } = await pickedUp(shop);
    await eventually(async () => (await pendingSyncJobs(t)).some((j) => j.last_error !== null));
    // As a process killed with SIGKILL leaves it: locked by a worker that will never finish it.
    const queue = jobQueueOn(t.pool);
    const waiting = (await queue.list({ task: 'shopify_sync_order' }, 10_000)).filter(
      (j) => j.lockedAt === null,
    );
    await holdAsDeadWorker(
      t.pool,
      waiting.map((j) => j.id),
      'killed-worker',
      '10 minutes',
    );
    fake.setMode('up');
    expect(await runSyncJobsNow(t)).toBe(0);
    await sleep(300);
    expect(fulfillmentsOf(fake, shop, order.gid)).toHaveLength(0);
    await queue.add(RECOVER_STALLED_JOBS.name, { v: 1 });
    await eventually(
      async () => (await runSyncJobsNow(t)) > 0 || fulfillmentsOf(fake, shop, order.gid).length > 0,
    );
    await oneFulfillment(shop, order.gid);
  });
});

describe('orders we cannot deliver', () => {
  it('records an out-of-zone order as a sync problem, without a delivery order', async () => {
    const { shop, connectionId } = await installShop(live);
    const order = paidOrder(live, shop, { shippingAddress: { zip: '13001', city: 'Marseille' } });
    expect((await live.fake.sendWebhook(shop, 'orders/paid', order.payload)).status).toBe(200);
    const problem = await eventually(async () => {
      const { rows } = await live.t.pool.query(
        'SELECT kind, external_name FROM connector_problems WHERE connection_id = $1 AND external_id = $2',
        [connectionId, order.gid],
      );
      return rows[0];
    });
    expect(problem).toEqual({ kind: 'out_of_zone', external_name: order.name });
    expect(await deliveryOrdersOf(live.t, order.gid)).toHaveLength(0);
    expect(callsOf(shop, 'fulfillmentCreate')).toHaveLength(0);
    // The next order of the shop goes through.
    const { order: next } = await pickedUp(shop);
    await oneFulfillment(shop, next.gid);
  });
});

describe('a revoked token', () => {
  it('marks the link broken on Shopify’s 401 and stops retrying', async () => {
    const { shop, connectionId } = await installShop(live);
    const { order, delivery } = await pickedUp(shop);
    await oneFulfillment(shop, order.gid);
    await eventually(async () => (await pendingSyncJobs(live.t)).length === 0);
    // The merchant revoked the app's token (its access, not the app itself).
    live.fake.shop(shop).accessTokens.length = 0;
    await live.t.deps.orders.setStatus(delivery.tracking_ref, 'in_transit', null, testOperator);
    const broken = await eventually(async () => {
      const { rows } = await live.t.pool.query(
        'SELECT status, status_reason FROM connector_connections WHERE id = $1',
        [connectionId],
      );
      return rows[0].status === 'broken' && rows[0];
    });
    expect(broken.status_reason).toMatch(/401/);
    expect(live.fake.shop(shop).calls.filter((c) => c.outcome === 'unauthorized')).toHaveLength(1);
    await eventually(async () => (await pendingSyncJobs(live.t)).length === 0);

    // Later changes are not sent to a shop that refuses us.
    await live.t.deps.orders.setStatus(delivery.tracking_ref, 'out_for_delivery', null, testOperator);
    await sleep(500);
    expect(live.fake.shop(shop).calls.filter((c) => c.outcome === 'unauthorized')).toHaveLength(1);
    expect(await pendingSyncJobs(live.t)).toHaveLength(0);
  });
});
