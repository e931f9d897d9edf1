import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/db/pool.ts';
import { ordersRepository } from '../src/db/repositories/orders-repository.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import { prefixedId } from '../src/domain/ids.ts';
import type { OrderJson } from '../src/domain/orders/order-json.ts';
import { WEBHOOKS_FAN_OUT } from '../src/jobs/webhooks-fan-out.ts';
import { type Runner, startWorker } from '../src/worker.ts';
import {
  buildTestApp,
  createBrandWithKey,
  TEST_PICKUP_ADDRESS,
  type TestApp,
  testConfig,
} from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { DLV_BIN } from './support/run-cli.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import {
  eventually,
  type Receiver,
  type Responder,
  sleep,
  startReceiver,
  verifyWith,
} from './support/webhook-receiver.ts';

// Workers of their own on a database of their own: several runners, one of them killed.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let respond: Responder = () => ({ status: 200 });
let receiver: Receiver;
const extra: { deps: Deps; runner: Runner | null }[] = [];

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url, webhooksAllowInsecure: true } });
  receiver = await startReceiver((req) => respond(req));
});
afterAll(async () => {
  for (const w of extra) {
    await w.runner?.stop();
    await w.deps.pool.end();
  }
  await receiver?.close();
  await t?.close();
  await scratch?.drop();
});

/** A worker as a separate process would run it: its own deps and pool on the same database. */
async function worker(concurrency: number) {
  const config = testConfig({ databaseUrl: scratch.url, webhooksAllowInsecure: true });
  const deps = createDeps(config, createPool(scratch.url, concurrency + 6));
  const entry = { deps, runner: null as Runner | null };
  extra.push(entry);
  entry.runner = await startWorker(deps, { concurrency, pollIntervalMs: 100 });
  return entry;
}

async function stop(entry: { runner: Runner | null }) {
  await entry.runner?.stop();
  entry.runner = null;
}

describe('webhook workers', () => {
  it('a worker killed mid-delivery: the delivery is sent again, with the same webhook-id, after restart', async () => {
    const brand = await createBrandWithKey(t.deps);
    const path = `/${brand.brandId}`;
    const { endpoint, secret } = await t.deps.webhooks.add(
      {
        brandId: brand.brandId,
        url: receiver.url(path),
      },
      testOperator,
    );
    let first = true;
    respond = (req) => {
      if (req.path !== path) return { status: 200 };
      if (!first) return { status: 200 };
      first = false;
      return 'hold'; // the receiver holds the request while the worker dies
    };

    const child = spawn(process.execPath, [DLV_BIN, 'worker', '--concurrency', '2'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATABASE_URL: scratch.url,
        PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
        WEBHOOKS_ALLOW_INSECURE: '1',
      },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      expect((await createOrder(t.app, brand, VALID_ORDER)).statusCode).toBe(200);
      await eventually(async () => receiver.received.some((r) => r.path === path), 15_000);
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    const [delivery] = await t.deps.webhooks.deliveries(endpoint.id);
    // The attempt died with the worker: still owed, held only by the dead worker's lease.
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 0 });
    const { rows: leased } = await t.pool.query(
      'SELECT id FROM webhook_deliveries WHERE id = $1 AND lease_until > now() FOR UPDATE NOWAIT',
      [delivery!.id],
    );
    expect(leased).toHaveLength(1);

    // Time passes: the lease (the send's timeout plus a margin) runs out; any worker claims it again.
    await t.pool.query(
      `UPDATE webhook_deliveries SET lease_until = now() - interval '1 second' WHERE id = $1`,
      [delivery!.id],
    );
    const restarted = await worker(2);
    const hooks = await eventually(async () => {
      const got = receiver.received.filter((r) => r.path === path);
      return got.length >= 2 && got;
    });
    expect(hooks[1]!.headers['webhook-id']).toBe(hooks[0]!.headers['webhook-id']);
    expect(verifyWith(secret, hooks[1]!)).toMatchObject({ type: 'order.created' });
    await eventually(async () => (await t.deps.webhooks.deliveries(endpoint.id))[0]?.status === 'succeeded');
    await stop(restarted);
  });

  it('1,000 status changes with two workers: 1,000 deliveries, none lost, none sent twice at once', async () => {
    const brand = await createBrandWithKey(t.deps);
    const path = `/${brand.brandId}`;
    const { endpoint } = await t.deps.webhooks.add(
      {
        brandId: brand.brandId,
        url: receiver.url(path),
        events: 'order.status_changed',
      },
      testOperator,
    );
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    respond = async (req) => {
      if (req.path !== path) return { status: 200 };
      const id = req.headers['webhook-id']!;
      if (inFlight.has(id)) overlaps.push(id);
      inFlight.add(id);
      await sleep(Math.random() * 3);
      inFlight.delete(id);
      return { status: 200 };
    };
    const workers = [await worker(8), await worker(8)];

    const started = Date.now();
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 50 }, () =>
          t.deps.orders.create({ id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS }, VALID_ORDER),
        ),
      );
    }
    // Straight through the repository (the statement the service runs) to keep the test quick.
    const orders = ordersRepository(t.pool);
    const { rows: ids } = await t.pool.query<{ id: number }>('SELECT id FROM orders WHERE brand_id = $1', [
      brand.brandId,
    ]);
    const path4 = ['pending', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered'] as const;
    await Promise.all(
      ids.map(async ({ id }) => {
        for (let i = 1; i < path4.length; i++) {
          const [from, to] = [path4[i - 1]!, path4[i]!];
          const moved = await orders.transition(id, { from, to, note: null, at: new Date() }, [
            {
              id: prefixedId('msg', 12),
              type: 'order.status_changed',
              brandId: brand.brandId,
              at: new Date(),
              data: { order: { status: to } as OrderJson, previous_status: from },
              jobs: [WEBHOOKS_FAN_OUT.name],
            },
          ]);
          expect(moved?.status).toBe(to);
        }
      }),
    );
    const changed = Date.now() - started;
    const hooks = await eventually(async () => {
      const got = receiver.received.filter((r) => r.path === path);
      return got.length >= 1000 && got;
    }, 60_000);
    const elapsed = Date.now() - started;

    await sleep(200); // anything sent twice would arrive now
    const all = receiver.received.filter((r) => r.path === path);
    expect(all).toHaveLength(1000);
    expect(new Set(all.map((h) => h.headers['webhook-id'])).size).toBe(1000);
    expect(overlaps).toEqual([]);
    const { rows } = await t.pool.query(
      `SELECT d.status, count(*)::int AS n, sum(d.attempt_count)::int AS attempts
         FROM webhook_deliveries d WHERE d.endpoint_id = $1 GROUP BY d.status`,
      [endpoint.id],
    );
    expect(rows).toEqual([{ status: 'succeeded', n: 1000, attempts: 1000 }]);
    expect(hooks.every((h) => h.json.type === 'order.status_changed')).toBe(true);
    console.info(`1,000 webhooks through two workers in ${elapsed} ms (changes made in ${changed} ms)`);
    for (const w of workers) await stop(w);
  }, 90_000);
});
