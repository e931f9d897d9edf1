import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDatabase, postOrder } from '../chaos/harness.ts';
import { testOperator } from '../support/audit.ts';
import {
  createTopologyBrand,
  startTopology,
  type Topology,
  type TopologyBrand,
} from '../support/topology.ts';
import { findBinary } from '../support/topology-infra.ts';
import { type ReceivedWebhook, type Receiver, sleep, startReceiver } from '../support/webhook-receiver.ts';
import { describeFailures, startClientLoad } from './client-load.ts';

/**
 * The SRE trial of issue #25: compose.yaml's two APIs and two workers on PostgreSQL and Redis, a
 * brand listening to order.created, 20 clients creating 600 orders through haproxy; mid-load one
 * API and one worker are SIGKILLed and restarted (as `restart: unless-stopped` or a Deployment
 * would). Nothing is lost or made twice, and every order's event reaches the receiver within 60 s
 * of the restart, the jobs the killed worker held included.
 */

const HAPROXY = findBinary('haproxy');
if (!HAPROXY) console.warn('[topology] skipped: haproxy is not installed (apt-get install -y haproxy)');

const ORDERS = 600;
/** The order an order.created delivery is about (its reference is the Idempotency-Key it was created with). */
const referenceOf = (r: ReceivedWebhook): string | undefined => r.json.data?.order?.reference;
const DELIVERY_DEADLINE_MS = 60_000;

describe.skipIf(!HAPROXY)('topology: the SRE trial (an API and a worker SIGKILLed mid-load)', () => {
  let topology: Topology;
  let brand: TopologyBrand & Awaited<ReturnType<typeof createTopologyBrand>>;
  let receiver: Receiver;

  beforeAll(async () => {
    topology = await startTopology({
      overrides: {
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_SECOND: '1000000',
        RATE_LIMIT_BURST: '1000000',
        SHUTDOWN_DRAIN_MS: '3000',
        // The receiver listens on loopback.
        WEBHOOKS_ALLOW_INSECURE: '1',
      },
    });
    console.log(`[topology] ${topology.summary}`);
    brand = await createTopologyBrand(topology.databaseUrl);
    receiver = await startReceiver();
    await brand.deps.webhooks.add(
      {
        brandId: brand.brandId,
        url: receiver.url('/hooks'),
        events: 'order.created',
      },
      testOperator,
    );
    // Each API learns of the new endpoint from its listener cache's poll: an order created on each
    // one directly must reach the receiver before the trial starts.
    for (const api of topology.apis) {
      const base = `http://127.0.0.1:${api.port}/public/v1`;
      for (let n = 0; ; n++) {
        if (n === 15) throw new Error(`${api.name}'s orders never reach the receiver:\n${topology.logs()}`);
        const reference = `probe-${api.name}-${n}`;
        const created = await postOrder(base, brand, reference);
        expect(created.kind === 'response' && created.status, JSON.stringify(created)).toBe(200);
        const deadline = Date.now() + 3000;
        while (Date.now() < deadline && !receiver.received.some((r) => referenceOf(r) === reference))
          await sleep(50);
        if (receiver.received.some((r) => referenceOf(r) === reference)) break;
      }
    }
  });
  afterAll(async () => {
    await receiver?.close();
    await brand?.close();
    await topology?.close();
  });

  it(`${ORDERS} orders from 20 clients, api-1 and worker-1 SIGKILLed mid-load: every order once, every event within 60 s of the restart`, async () => {
    const load = startClientLoad(topology.base, brand, {
      concurrency: 20,
      prefix: 'sre',
      maxOrders: ORDERS,
      retryUntilAnswered: true,
    });
    let killedAt: number;
    let restartedAt: number;
    try {
      await load.answered(ORDERS / 3);
      const [api1] = topology.apis;
      const [worker1] = topology.workers;
      killedAt = Date.now();
      await Promise.all([api1!.stop('SIGKILL'), worker1!.stop('SIGKILL')]);
      await Promise.all([topology.restart(api1!), topology.restart(worker1!)]);
      restartedAt = Date.now();
      await load.done;
    } finally {
      await load.stop();
    }

    // Nothing lost, nothing made twice: one order per key, the one its client was told.
    const db = await checkDatabase(topology.databaseUrl, brand.brandId);
    const probes = [...db.refByReference.keys()].filter((r) => r.startsWith('probe-')).length;
    expect(load.acknowledged.size).toBe(ORDERS);
    expect(db.duplicates).toBe(0);
    expect(db.orders - probes).toBe(ORDERS);
    for (const [key, ref] of load.acknowledged) expect(db.refByReference.get(key), key).toBe(ref);

    // Every order's event delivered, within 60 s of the restart.
    const deadline = restartedAt + DELIVERY_DEADLINE_MS;
    const delivered = () =>
      new Set(receiver.received.map((r) => referenceOf(r)).filter((r) => r?.startsWith('sre-')));
    while (delivered().size < ORDERS && Date.now() < deadline) await sleep(200);
    const got = delivered();
    const missing = [...load.acknowledged.keys()].filter((key) => !got.has(key));
    const perOrder = receiver.received.filter((r) => referenceOf(r)?.startsWith('sre-'));
    const last = Math.max(...perOrder.map((r) => r.at));
    const failures = load.failures();
    const servers = await topology.servers();
    console.log(
      `[topology] sre trial: ${ORDERS} orders, ${failures.length} requests answered other than 200 (then retried), ` +
        `killed → restarted in ${restartedAt - killedAt} ms, events: ${got.size}/${ORDERS} delivered ` +
        `(${perOrder.length - got.size} sent again), the last ${last - restartedAt} ms after the restart; ` +
        `haproxy: ${JSON.stringify(servers)}`,
    );
    if (failures.length)
      console.log(`[topology] first answers other than 200:\n${describeFailures(failures)}`);
    expect(missing, `${missing.length} orders without their event 60 s after the restart`).toEqual([]);
    expect(last - restartedAt).toBeLessThanOrEqual(DELIVERY_DEADLINE_MS);
  });
});
