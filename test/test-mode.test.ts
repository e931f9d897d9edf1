import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoicesRepository } from '../src/db/repositories/invoices-repository.ts';
import { roundsRepository } from '../src/db/repositories/rounds-repository.ts';
import { SCOPES } from '../src/domain/api-keys/keys.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { PLAY_TEST_SCENARIO_SPEC } from '../src/jobs/job-names.ts';
import { type Runner, startWorker } from '../src/worker.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { hasCommand } from './support/php.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { eventually, type Receiver, startReceiver, verifyWith } from './support/webhook-receiver.ts';

const run = promisify(execFile);
const PDFTOTEXT = hasCommand('pdftotext');
if (!PDFTOTEXT)
  console.warn('[tests] pdftotext not found (poppler-utils): the SPECIMEN label PDF check is skipped');

// A database of its own: the worker here delivers this file's webhooks only.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let runner: Runner;
let receiver: Receiver;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({
    config: { databaseUrl: scratch.url, webhooksAllowInsecure: true, testModeStepMs: 50 },
  });
  receiver = await startReceiver();
  runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 4 });
});
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
  await t?.close();
  await scratch?.drop();
});

/** A live brand with its live key, and a test key of the same brand. */
async function brandWithTestKey(): Promise<{ live: TestBrand; test: TestBrand }> {
  const live = await createBrandWithKey(t.deps);
  const key = await t.deps.apiKeys.create(
    { brandId: live.brandId, scopes: [...SCOPES], test: true },
    testOperator,
  );
  return {
    live,
    test: {
      brandId: key.brandId,
      key: key.key,
      keyId: key.id,
      headers: { authorization: `Bearer ${key.key}` },
    },
  };
}

const simulate = (brand: TestBrand, ref: string, body: object) =>
  call(t.app, {
    method: 'POST',
    url: `${API}/orders/${ref}/simulate`,
    headers: brand.headers,
    payload: body,
  });

describe('test mode', () => {
  it('keeps test and live apart: keys, orders, lists, pickups, rounds and invoices', async () => {
    const { live, test } = await brandWithTestKey();
    expect(test.key).toMatch(/^dlv_test_[0-9a-f]{64}$/);
    expect(test.brandId).not.toBe(live.brandId);

    const liveOrder = await createOrder(t.app, live);
    const testOrder = await createOrder(t.app, test);
    expect(liveOrder.statusCode).toBe(200);
    expect(testOrder.statusCode).toBe(200);
    expect(liveOrder.data.order.livemode).toBe(true);
    expect(testOrder.data.order.livemode).toBe(false);
    // Priced from the same grid as live.
    expect(testOrder.data.order.price_eur).toBe(liveOrder.data.order.price_eur);
    const liveRef = liveOrder.data.trackingRef as string;
    const testRef = testOrder.data.trackingRef as string;

    const get = (brand: TestBrand, ref: string) =>
      call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect((await get(live, testRef)).statusCode).toBe(404);
    expect((await get(test, liveRef)).statusCode).toBe(404);
    expect((await get(test, testRef)).data.order.livemode).toBe(false);
    const list = async (brand: TestBrand) =>
      (
        (await call(t.app, { method: 'GET', url: `${API}/orders`, headers: brand.headers })).data.orders as {
          tracking_ref: string;
        }[]
      ).map((o) => o.tracking_ref);
    expect(await list(live)).toEqual([liveRef]);
    expect(await list(test)).toEqual([testRef]);

    // Never dispatched: no pickup, and never planned on a round even once it is "picked up".
    const { rows } = await t.pool.query<{ pickup_id: string | null; livemode: boolean }>(
      'SELECT pickup_id, livemode FROM orders WHERE tracking_ref = $1',
      [testRef],
    );
    expect(rows[0]).toEqual({ pickup_id: null, livemode: false });
    expect((await t.pool.query('SELECT 1 FROM pickups WHERE brand_id = $1', [test.brandId])).rowCount).toBe(
      0,
    );
    expect((await simulate(test, testRef, { to: 'picked_up' })).statusCode).toBe(200);
    const promised = testOrder.data.order.promised_date as string;
    const due = await roundsRepository(t.pool).deliveriesDue(promised);
    const { rows: ids } = await t.pool.query<{ id: string }>(
      'SELECT id::text FROM orders WHERE tracking_ref = $1',
      [testRef],
    );
    expect(due.map((d) => d.orderId)).not.toContain(ids[0]!.id);

    // Never billed: the twin is no brand to invoice, whatever the month.
    const now = new Date();
    const start = new Date(now.getFullYear(), now.getMonth() - 1, 1);
    const end = new Date(now.getFullYear(), now.getMonth() + 2, 1);
    const toInvoice = await invoicesRepository(t.pool).brandsToInvoice('2099-01', start, end);
    expect(toInvoice).toContain(live.brandId);
    expect(toInvoice).not.toContain(test.brandId);
    // Its tracking page says it is a test order; a live one's does not.
    const page = async (order: { tracking_url: string }) =>
      (await t.app.inject({ method: 'GET', url: new URL(order.tracking_url).pathname })).body;
    expect(await page(testOrder.data.order)).toContain('Commande de test');
    expect(await page(liveOrder.data.order)).not.toContain('Commande de test');
    // Nor listed among brands.
    expect((await t.deps.brands.list()).map((b) => b.id)).not.toContain(test.brandId);
  });

  it('refuses simulation to a live key (403 test_mode_only) and steps out of order (409)', async () => {
    const { live, test } = await brandWithTestKey();
    const liveRef = (await createOrder(t.app, live)).data.trackingRef as string;
    const testRef = (await createOrder(t.app, test)).data.trackingRef as string;
    const refused = await simulate(live, liveRef, { to: 'picked_up' });
    expect(refused.statusCode).toBe(403);
    expect(refused.data.error).toBe('test_mode_only');
    // A live key cannot reach a test order either.
    expect((await simulate(live, testRef, { to: 'picked_up' })).data.error).toBe('test_mode_only');
    const early = await simulate(test, testRef, { to: 'delivered' });
    expect(early.statusCode).toBe(409);
    expect(early.data.error).toBe('simulation_out_of_order');
    const bad = await simulate(test, testRef, { to: 'teleported' });
    expect(bad.statusCode).toBe(400);
    expect((await simulate(test, 'DLV-0000000000', { to: 'picked_up' })).statusCode).toBe(404);
    // Another brand's test key: the same 404 as a reference that exists nowhere, the order unmoved.
    const other = await brandWithTestKey();
    const crossed = await simulate(other.test, testRef, { to: 'picked_up' });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.data.error).toBe('not_found');
    const own = await call(t.app, { method: 'GET', url: `${API}/orders/${testRef}`, headers: test.headers });
    expect(own.data.order.status).toBe('pending');
  });

  it('drives a test order through every step; signed webhooks say livemode: false; live endpoints hear nothing', async () => {
    const { live, test } = await brandWithTestKey();
    const subscribe = async (brand: TestBrand, path: string) => {
      const res = await call(t.app, {
        method: 'POST',
        url: `${API}/webhook-subscriptions`,
        headers: brand.headers,
        payload: {
          url: receiver.url(path),
          event_types: ['order.status_changed', 'order.delivered', 'order.created'],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.data.secret as string;
    };
    const testPath = `/test-${test.brandId}`;
    const livePath = `/live-${live.brandId}`;
    const secret = await subscribe(test, testPath);
    await subscribe(live, livePath);

    const created = await createOrder(t.app, test, { ...VALID_ORDER, reference: 'TEST-1' });
    const ref = created.data.trackingRef as string;
    const steps = [
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'failed_attempt',
      'out_for_delivery',
      'delivered',
    ];
    for (const to of steps) {
      const res = await simulate(test, ref, to === 'failed_attempt' ? { to, reason: 'absent' } : { to });
      expect(res.statusCode, `${to}: ${res.body}`).toBe(200);
      expect(res.data.order.status).toBe(to);
    }
    const hooks = await eventually(async () => {
      const got = receiver.received.filter((r) => r.path === testPath);
      return got.length >= 1 + steps.length + 1 && got;
    }, 20_000);
    const payloads = hooks.map((h) => verifyWith(secret, h) as { type: string; data: { order: any } });
    for (const p of payloads) expect(p.data.order.livemode).toBe(false);
    const delivered = payloads.find((p) => p.type === 'order.delivered');
    expect(delivered?.data.order.tracking_ref).toBe(ref);
    // The sample proof of delivery, as a door scan's.
    expect(JSON.stringify(delivered?.data.order)).toContain('Test recipient (simulated)');
    expect(receiver.received.filter((r) => r.path === livePath)).toHaveLength(0);
    // Done: a final status stays final.
    expect((await simulate(test, ref, { to: 'delivered' })).data.error).toBe('simulation_out_of_order');
  });

  it('plays scenarios on the accelerated clock (happy_path, failed_then_delivered), refused to a live key', async () => {
    const { live, test } = await brandWithTestKey();
    const refused = await createOrder(t.app, live, { ...VALID_ORDER, test_scenario: 'happy_path' });
    expect(refused.statusCode).toBe(403);
    expect(refused.data.error).toBe('test_mode_only');
    expect((await t.pool.query('SELECT 1 FROM orders WHERE brand_id = $1', [live.brandId])).rowCount).toBe(0);
    expect((await createOrder(t.app, test, { ...VALID_ORDER, test_scenario: 'teleport' })).statusCode).toBe(
      400,
    );

    // A test endpoint hears both scenarios, each step signed (Standard Webhooks) with livemode false.
    const hooksPath = `/scenarios-${test.brandId}`;
    const subscribed = await call(t.app, {
      method: 'POST',
      url: `${API}/webhook-subscriptions`,
      headers: test.headers,
      payload: {
        url: receiver.url(hooksPath),
        event_types: ['order.status_changed', 'order.delivered', 'order.delivery_failed'],
      },
    });
    expect(subscribed.statusCode, subscribed.body).toBe(201);

    const happy = await createOrder(t.app, test, { ...VALID_ORDER, test_scenario: 'happy_path' });
    const failing = await createOrder(t.app, test, {
      ...VALID_ORDER,
      test_scenario: 'failed_then_delivered',
    });
    expect(happy.statusCode, happy.body).toBe(200);
    const historyOf = async (ref: string) =>
      (
        (await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: test.headers })).data.order
          .events as { status: string }[]
      ).map((e) => e.status);
    const done = async (ref: string) => {
      const h = await historyOf(ref);
      return h.at(-1) === 'delivered' && h;
    };
    expect(await eventually(() => done(happy.data.trackingRef), 20_000)).toEqual([
      'pending',
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(await eventually(() => done(failing.data.trackingRef), 20_000)).toEqual([
      'pending',
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'failed_attempt',
      'out_for_delivery',
      'delivered',
    ]);
    // 4 status changes + order.delivered for happy_path; 6 + delivery_failed + delivered for the other.
    const hooks = await eventually(async () => {
      const got = receiver.received.filter((r) => r.path === hooksPath);
      return got.length >= 5 + 8 && got;
    }, 20_000);
    const events = hooks.map(
      (h) => verifyWith(subscribed.data.secret, h) as { type: string; data: { order: any } },
    );
    for (const e of events) expect(e.data.order.livemode).toBe(false);
    const typesOf = (ref: string) =>
      events.filter((e) => e.data.order.tracking_ref === ref).map((e) => e.type);
    expect(typesOf(happy.data.trackingRef).filter((type) => type === 'order.delivered')).toHaveLength(1);
    expect(typesOf(failing.data.trackingRef)).toEqual(
      expect.arrayContaining(['order.delivery_failed', 'order.delivered']),
    );
  });

  it('writes a test order and its scenario together: a scenario that cannot be queued leaves no order, with or without Idempotency-Key', async () => {
    const { test } = await brandWithTestKey();
    const ordersOf = async () =>
      (await t.pool.query('SELECT 1 FROM orders WHERE brand_id = $1', [test.brandId])).rowCount;
    const scenarioJobs = async () =>
      (
        await t.pool.query(
          `SELECT 1 FROM ${QUEUED_JOBS} j WHERE j.task = '${PLAY_TEST_SCENARIO_SPEC.name}' AND j.payload->>'brand_id' = $1`,
          [test.brandId],
        )
      ).rowCount;
    // The queue refuses the scenario's job (as a queue that fails at that moment would).
    await t.pool.query(`CREATE FUNCTION refuse_scenario_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = '${PLAY_TEST_SCENARIO_SPEC.name}') THEN
          RAISE EXCEPTION 'the queue is away';
        END IF;
        RETURN NEW;
      END $$`);
    await t.pool.query(`CREATE TRIGGER refuse_scenario_jobs BEFORE INSERT ON graphile_worker._private_jobs
      FOR EACH ROW EXECUTE FUNCTION refuse_scenario_jobs()`);
    const key = randomUUID();
    try {
      const plain = await createOrder(t.app, test, { ...VALID_ORDER, test_scenario: 'happy_path' });
      expect(plain.statusCode).toBe(500);
      const keyed = await call(t.app, {
        method: 'POST',
        url: `${API}/orders`,
        headers: { ...test.headers, 'idempotency-key': key },
        payload: { ...VALID_ORDER, test_scenario: 'happy_path' },
      });
      expect(keyed.statusCode).toBe(500);
      expect(await ordersOf()).toBe(0);
      // Without a scenario, the queue has nothing to refuse.
      expect((await createOrder(t.app, test)).statusCode).toBe(200);
      expect(await ordersOf()).toBe(1);
    } finally {
      await t.pool.query('DROP TRIGGER refuse_scenario_jobs ON graphile_worker._private_jobs');
      await t.pool.query('DROP FUNCTION refuse_scenario_jobs()');
    }
    // The key stored nothing: the same request again creates the order, with its scenario's job.
    const again = await call(t.app, {
      method: 'POST',
      url: `${API}/orders`,
      headers: { ...test.headers, 'idempotency-key': key },
      payload: { ...VALID_ORDER, test_scenario: 'happy_path' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await ordersOf()).toBe(2);
    // Queued (or already taken by this file's worker, which then moved the order on).
    const moved = async () =>
      (await scenarioJobs()) === 1 ||
      (
        await call(t.app, {
          method: 'GET',
          url: `${API}/orders/${again.data.trackingRef}`,
          headers: test.headers,
        })
      ).data.order.status !== 'pending';
    expect(await eventually(moved, 20_000)).toBe(true);
  });

  it('creates an address_flagged test order with its address flagged and order.address_flagged written', async () => {
    const { live, test } = await brandWithTestKey();
    expect(
      (await createOrder(t.app, live, { ...VALID_ORDER, test_scenario: 'address_flagged' })).statusCode,
    ).toBe(403);
    // Events are written for listeners only: a test endpoint listens (nothing is sent to it here).
    await t.deps.webhooks.add({ brandId: test.brandId, url: 'https://93.184.216.34/hooks' }, testOperator);
    const res = await createOrder(t.app, test, { ...VALID_ORDER, test_scenario: 'address_flagged' });
    expect(res.statusCode).toBe(200);
    const order = res.data.order as { address_warnings: { code: string }[]; status: string };
    expect(order.address_warnings.map((w) => w.code)).toContain('address_uncertain');
    expect(order.status).toBe('pending');
    const { rows } = await t.pool.query(`SELECT type FROM outbox_events WHERE brand_id = $1 ORDER BY id`, [
      test.brandId,
    ]);
    expect(rows.map((r) => r.type)).toContain('order.address_flagged');
  });

  it("prints SPECIMEN across a test order's label, and a courier's scan of it is refused", async () => {
    const { test } = await brandWithTestKey();
    const ref = (await createOrder(t.app, test)).data.trackingRef as string;
    const zpl = await t.app.inject({
      method: 'GET',
      url: `${API}/orders/${ref}/label?format=zpl`,
      headers: test.headers,
    });
    expect(zpl.statusCode).toBe(200);
    expect(zpl.body).toContain('SPECIMEN');
    const pdf = await t.app.inject({
      method: 'GET',
      url: `${API}/orders/${ref}/label`,
      headers: test.headers,
    });
    expect(pdf.statusCode).toBe(200);
    if (PDFTOTEXT) {
      const dir = await mkdtemp(join(tmpdir(), 'specimen-'));
      try {
        await writeFile(join(dir, 'label.pdf'), pdf.rawPayload);
        // Drawn corner to corner: a text extractor gives the rotated line a letter at a time.
        const text = (await run('pdftotext', ['-raw', join(dir, 'label.pdf'), '-'])).stdout.replace(
          /\s+/g,
          '',
        );
        expect(text).toContain('SPECIMEN—NOTFORDELIVERY');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
    const [scan] = await t.deps.scans.apply({ courierId: null, locale: 'en', by: testOperator }, [
      { id: randomUUID(), context: 'pickup', code: ref, happened_at: new Date().toISOString() },
    ]);
    expect(scan).toMatchObject({ result: 'refused', problem: { code: 'test_order' } });
    expect(scan!.problem!.message).toMatch(/test order/);
    const { rows } = await t.pool.query<{ status: string }>(
      'SELECT status FROM orders WHERE tracking_ref = $1',
      [ref],
    );
    expect(rows[0]!.status).toBe('pending');
  });
});
