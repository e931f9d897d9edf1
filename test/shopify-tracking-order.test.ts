import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../src/domain/orders/state-machine.ts';
import { testOperator } from './support/audit.ts';
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
import { eventually } from './support/webhook-receiver.ts';

/**
 * Tracking reaches Shopify whole and in order, against the fake and a worker running 4 jobs at
 * once: an order's quick moves arrive in the order they happened, even when one waits out a
 * retry; a fulfillment Shopify made whose answer we never got is adopted, not lost or made twice.
 */
let live: LiveShopify;

beforeAll(async () => {
  live = await startLiveShopify();
});
afterEach(() => {
  live.fake.setMode('up');
  live.fake.setLatency(null);
});
afterAll(() => live?.close());

/** A linked shop and one paid order of it, delivered to us, waiting for pickup. */
async function receivedOrder() {
  const { shop } = await installShop(live);
  const order = paidOrder(live, shop);
  expect((await live.fake.sendWebhook(shop, 'orders/paid', order.payload)).status).toBe(200);
  const delivery = await oneDeliveryOrder(live.t, order.gid);
  return { shop, order, ref: delivery.tracking_ref as string };
}

/** Our fulfillment of the order on the shop, once made (at pickup). */
async function fulfillmentOf(shop: string, gid: string, timeout?: number): Promise<string> {
  const [fulfillment] = await eventually(async () => {
    const found = fulfillmentsOf(live.fake, shop, gid);
    return found.length > 0 && found;
  }, timeout);
  return fulfillment!.id;
}

const eventsOf = (shop: string, fulfillmentId: string) =>
  live.fake
    .shop(shop)
    .fulfillmentEvents.filter((e) => e.fulfillmentId === fulfillmentId)
    .map((e) => e.status);

const move = (ref: string, status: OrderStatus) =>
  live.t.deps.orders.setStatus(ref, status, null, testOperator);

describe('an order’s moves reach Shopify in order', () => {
  it('quick successive moves arrive in the order they happened, though the worker runs 4 jobs at once', async () => {
    const { shop, order, ref } = await receivedOrder();
    // Each call takes less time than the one before: calls made side by side would land reversed.
    let calls = 0;
    live.fake.setLatency(() => Math.max(0, 600 - 150 * calls++));
    for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'] as const)
      await move(ref, status);
    // The pickup made the fulfillment; the later moves waited for it.
    const fulfillmentId = await fulfillmentOf(shop, order.gid, 15_000);
    await eventually(async () => eventsOf(shop, fulfillmentId).length === 4, 15_000);
    expect(eventsOf(shop, fulfillmentId)).toEqual([
      'CARRIER_PICKED_UP',
      'IN_TRANSIT',
      'OUT_FOR_DELIVERY',
      'DELIVERED',
    ]);

    // One queue per order; once the order cannot move any more, its queue row is dropped.
    const queues = () =>
      live.t.pool.query('SELECT 1 FROM graphile_worker._private_job_queues WHERE queue_name = $1', [
        `shopify:${ref}`,
      ]);
    expect((await queues()).rows).toHaveLength(1);
    await live.t.deps.jobQueue.deleteFinishedOrderQueues();
    expect((await queues()).rows).toHaveLength(0);
  });

  it('a move made while an older one waits out its retry is sent after it', async () => {
    const { shop, order, ref } = await receivedOrder();
    live.fake.setMode('down');
    await move(ref, 'picked_up');
    await eventually(async () => (await pendingSyncJobs(live.t)).some((j) => /503/.test(j.last_error ?? '')));
    // Shopify is back; the pickup (fulfillment and event) is still waiting for its retry (graphile's backoff).
    live.fake.setMode('up');
    await move(ref, 'in_transit');
    const fulfillmentId = await fulfillmentOf(shop, order.gid, 15_000);
    await eventually(async () => eventsOf(shop, fulfillmentId).length === 2, 15_000);
    expect(eventsOf(shop, fulfillmentId)).toEqual(['CARRIER_PICKED_UP', 'IN_TRANSIT']);
  });
});

describe('a fulfillment whose answer was lost', () => {
  it('is adopted on the next run, never made twice, and later moves are sent to it', async () => {
    const { shop, order, ref } = await receivedOrder();
    // At pickup Shopify makes the fulfillment, but the connection is cut before we hear of it.
    live.fake.loseAnswers('fulfillmentCreate');
    await move(ref, 'picked_up');
    await eventually(async () => (await pendingSyncJobs(live.t)).some((j) => j.last_error !== null));
    const [made] = fulfillmentsOf(live.fake, shop, order.gid);
    expect(made).toBeDefined();
    expect((await deliveryOrdersOf(live.t, order.gid))[0].fulfillment_id).toBeNull();

    // The retry (run now rather than after graphile's backoff) finds it by our tracking number.
    await runSyncJobsNow(live.t);
    const adopted = await eventually(
      async () => ((await deliveryOrdersOf(live.t, order.gid))[0].fulfillment_id as string | null) ?? false,
    );
    expect(adopted).toBe(made!.id);
    expect(fulfillmentsOf(live.fake, shop, order.gid)).toHaveLength(1);

    await move(ref, 'in_transit');
    await eventually(async () => eventsOf(shop, made!.id).length === 2);
    expect(eventsOf(shop, made!.id)).toEqual(['CARRIER_PICKED_UP', 'IN_TRANSIT']);
    expect(fulfillmentsOf(live.fake, shop, order.gid)).toHaveLength(1);
  });
});
