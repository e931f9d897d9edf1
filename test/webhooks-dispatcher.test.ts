import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/db/pool.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import { type Runner, startWorker } from '../src/worker.ts';
import { buildTestApp, createBrandWithKey, type TestApp, testConfig } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { eventually, type Receiver, type Responder, startReceiver } from './support/webhook-receiver.ts';

// Workers of their own, each with its delivery settings, on a database of their own.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let receiver: Receiver;
const responders = new Map<string, Responder>();
const workers: { deps: Deps; runner: Runner }[] = [];

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url, webhooksAllowInsecure: true } });
  receiver = await startReceiver((req) =>
    (responders.get(req.path.split('/')[1]!) ?? (() => ({ status: 200 })))(req),
  );
});
/** Each test's workers are its own: another's would send (and judge endpoints) too. */
async function stopWorkers() {
  for (const w of workers.splice(0)) {
    await w.runner.stop();
    await w.deps.pool.end();
  }
}

afterEach(stopWorkers);
afterAll(async () => {
  await stopWorkers();
  await receiver?.close();
  await t?.close();
  await scratch?.drop();
});

/** A worker process's runner and dispatcher, with these delivery settings. */
async function worker(delivery: Partial<Deps['config']['webhookDelivery']> = {}) {
  const base = testConfig().webhookDelivery;
  const config = testConfig({
    databaseUrl: scratch.url,
    webhooksAllowInsecure: true,
    webhookDelivery: { ...base, ...delivery },
  });
  const deps = createDeps(config, createPool(scratch.url, 8));
  const runner = await startWorker(deps, { concurrency: 2, pollIntervalMs: 100 });
  workers.push({ deps, runner });
  return runner;
}

/** A brand whose endpoint answers through `respond`, and a way to create its orders. */
async function brandWithEndpoint(name: string, respond: Responder = () => ({ status: 200 })) {
  const brand = await createBrandWithKey(t.deps);
  responders.set(name, respond);
  const { endpoint } = await t.deps.webhooks.add(
    {
      brandId: brand.brandId,
      url: receiver.url(`/${name}/hook`),
    },
    testOperator,
  );
  return {
    endpoint,
    hooks: () => receiver.received.filter((r) => r.path.startsWith(`/${name}/`)),
    async orders(n: number) {
      for (let i = 0; i < n; i++) expect((await createOrder(t.app, brand)).statusCode).toBe(200);
    },
    async deliveries() {
      const { rows } = await t.pool.query<{ status: string; attempt_count: number }>(
        'SELECT status, attempt_count FROM webhook_deliveries WHERE endpoint_id = $1',
        [endpoint.id],
      );
      return rows;
    },
  };
}

/** A receiver answer held until `open()`. */
function gate() {
  let open = () => {};
  const opened = new Promise<{ status: number }>((resolve) => {
    open = () => resolve({ status: 200 });
  });
  return { wait: () => opened, open };
}

describe('webhook dispatcher', () => {
  it('sends at most the per-endpoint limit at once to a slow endpoint, holds no transaction meanwhile, and others go on', async () => {
    const held = gate();
    let inFlight = 0;
    let most = 0;
    const slow = await brandWithEndpoint('slow', async () => {
      most = Math.max(most, ++inFlight);
      await held.wait();
      inFlight--;
      return { status: 200 };
    });
    const fast = await brandWithEndpoint('fast');
    await slow.orders(8);
    await fast.orders(6);
    await worker({ perEndpoint: 2 });

    // The fast endpoint gets all its deliveries while the slow one holds its two.
    await eventually(async () => fast.hooks().length >= 6, 30_000);
    await eventually(async () => slow.hooks().length >= 2, 30_000);
    expect(slow.hooks()).toHaveLength(2);
    expect(most).toBe(2);

    // Nothing waits on the receiver inside a transaction: no connection idle in one, and the rows
    // being sent are not locked (the lease is a column, written and committed before the send).
    const { rows: open } = await t.pool.query(
      `SELECT pid, state, query FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    expect(open).toEqual([]);
    const { rows: leased } = await t.pool.query(
      `SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND lease_until > now() FOR UPDATE NOWAIT`,
      [slow.endpoint.id],
    );
    expect(leased.length).toBeGreaterThanOrEqual(2);

    held.open();
    await eventually(async () => (await slow.deliveries()).every((d) => d.status === 'succeeded'), 30_000);
    expect(slow.hooks()).toHaveLength(8);
    expect(most).toBe(2);
  }, 60_000);

  it('opens a failing endpoint’s circuit: its deliveries wait untried, others are unaffected, and it closes after its pause', async () => {
    let failing = true;
    const broken = await brandWithEndpoint('broken', () => (failing ? { status: 500 } : { status: 200 }));
    const healthy = await brandWithEndpoint('healthy');
    await broken.orders(6);
    await healthy.orders(4);
    const pauseMs = 1500;
    await worker({ perEndpoint: 1, breaker: { failures: 3, pauseMs } });

    // Three failures in a row open it; the fourth request is the probe after the pause.
    await eventually(async () => broken.hooks().length >= 3, 30_000);
    const thirdAt = broken.hooks()[2]!.at;
    await eventually(async () => healthy.hooks().length >= 4, 30_000);
    const probe = await eventually(async () => broken.hooks()[3], 30_000);
    expect(probe.at - thirdAt).toBeGreaterThanOrEqual(pauseMs - 50);
    // While it was open nothing else was tried: three failed attempts, the rest never attempted.
    const before = await broken.deliveries();
    expect(before.filter((d) => d.attempt_count === 0).length).toBeGreaterThanOrEqual(6 - 4);
    expect((await healthy.deliveries()).every((d) => d.status === 'succeeded')).toBe(true);

    // The receiver recovers: a probe succeeds, the circuit closes, everything is delivered.
    failing = false;
    await eventually(async () => (await broken.deliveries()).every((d) => d.status === 'succeeded'), 45_000);
    const attempts = (await broken.deliveries()).reduce((n, d) => n + d.attempt_count, 0);
    // Each failed attempt was retried once (5 s later); none was lost, none sent twice on success.
    expect(attempts).toBe(6 + broken.hooks().filter((h) => h.at <= probe.at).length);
  }, 90_000);
});
