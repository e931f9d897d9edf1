import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveriesRepository } from '../src/db/repositories/webhook-deliveries-repository.ts';
import { webhooksRepository } from '../src/db/repositories/webhooks-repository.ts';
import { transactOn } from '../src/db/stores.ts';
import { webhookService } from '../src/domain/webhooks/webhook-service.ts';
import { destinationGuard } from '../src/infra/http/url-guard.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { type DeliverOptions, deliverWebhook } from '../src/jobs/webhooks-deliver.ts';
import { fanOutWebhookEvent } from '../src/jobs/webhooks-fan-out.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder } from './support/orders.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { type Receiver, type Responder, startReceiver } from './support/webhook-receiver.ts';

// No worker runs here: each test calls the job handlers itself with a pinned clock, so the retry
// schedule is checked over days without waiting. Own database, so no other file's worker interferes.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let now = new Date('2026-03-02T10:00:00Z');
let respond: Responder = () => ({ status: 500, body: 'boom' });
let receiver: Receiver;
const pinned: DeliverOptions = { random: () => 0.5, timeoutMs: 2000 };

const S = 1000;
const M = 60 * S;
const H = 60 * M;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({
    config: { databaseUrl: scratch.url, webhooksAllowInsecure: true },
    clock: () => now,
  });
  receiver = await startReceiver((req) => respond(req));
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await scratch?.drop();
});

/** The outcome a worker whose lease ran out would record too late. */
function lateOutcome(claimed: { id: string; leaseToken: string }) {
  return {
    deliveryId: claimed.id,
    leaseToken: claimed.leaseToken,
    attempt: null,
    outcome: { status: 'exhausted' as const, nextAttemptAt: null },
    attemptCount: 0,
    lastStatus: null,
    lastError: 'late',
    at: now,
  };
}

const serviceDeps = () => ({
  repository: webhooksRepository(t.pool),
  transact: transactOn(t.pool),
  brands: t.deps.brands,
  clock: () => now,
  retentionDays: 90,
});

/** A brand, an endpoint, one order and the delivery of its order.created event. */
async function oneDelivery() {
  const brand = await createBrandWithKey(t.deps);
  const { endpoint } = await t.deps.webhooks.add(
    {
      brandId: brand.brandId,
      url: receiver.url(`/${brand.brandId}`),
    },
    testOperator,
  );
  expect((await createOrder(t.app, brand)).statusCode).toBe(200);
  const { rows } = await t.pool.query('SELECT id FROM outbox_events WHERE brand_id = $1', [brand.brandId]);
  const [deliveryId] = await fanOutWebhookEvent(t.deps, rows[0].id);
  return { brand, endpoint, deliveryId: deliveryId!, eventId: rows[0].id as string };
}

async function state(deliveryId: string) {
  const { rows } = await t.pool.query(
    `SELECT d.status, d.attempt_count, d.next_attempt_at, d.lease_until,
       (SELECT count(*)::int FROM ${QUEUED_JOBS} j WHERE j.task = 'webhooks_fan_out'
           AND j.payload->>'event_id' = d.event_id) AS fan_out_jobs
     FROM webhook_deliveries d WHERE d.id = $1`,
    [deliveryId],
  );
  return rows[0];
}

const repo = () => webhookDeliveriesRepository(t.pool);

/** What a dispatcher would claim at `at` (then given back, as if never claimed). */
async function claimDue(at: Date): Promise<string[]> {
  const claimed = await repo().claim({ at, leaseMs: 30_000, perEndpoint: 4, rooms: [], limit: 1000 });
  for (const c of claimed) await repo().release(c.id, c.leaseToken);
  return claimed.map((c) => c.id);
}

describe('webhook retries', () => {
  it('fan-out is idempotent: a second run creates no delivery and no job', async () => {
    const { eventId, deliveryId } = await oneDelivery();
    expect(await fanOutWebhookEvent(t.deps, eventId)).toEqual([]);
    // The delivery is the queue: no job of its own; the event's fan-out job was taken by the fan-out.
    expect(await state(deliveryId)).toMatchObject({
      status: 'pending',
      attempt_count: 0,
      lease_until: null,
      fan_out_jobs: 0,
    });
  });

  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up, logging every attempt', async () => {
    respond = () => ({ status: 500, body: 'boom' });
    const { deliveryId, endpoint } = await oneDelivery();
    const expected = [5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H];
    for (const delay of expected) {
      expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('failed');
      const s = await state(deliveryId);
      expect(s.status).toBe('failed');
      expect(s.next_attempt_at.getTime() - now.getTime()).toBe(delay);
      // The next attempt is claimed at that time (its lease is gone), not before.
      expect(s.lease_until).toBeNull();
      expect(await claimDue(new Date(s.next_attempt_at.getTime() - 1))).not.toContain(deliveryId);
      // Running early does nothing but wait its turn.
      expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('not_due');
      now = new Date(s.next_attempt_at.getTime());
    }
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('exhausted');
    expect(await state(deliveryId)).toMatchObject({
      status: 'exhausted',
      attempt_count: 8,
      next_attempt_at: null,
    });
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('already_settled');

    const [delivery] = await t.deps.webhooks.deliveries(endpoint.id);
    expect(delivery!.attempts.map((a) => [a.attempt, a.responseStatus, a.responseExcerpt, a.error])).toEqual(
      Array.from({ length: 8 }, (_, i) => [i + 1, 500, 'boom', 'HTTP 500']),
    );
    // Less than 5 days of failures: the endpoint stays active, its failure run remembered.
    const after = await t.deps.webhooks.get(endpoint.id);
    expect(after.status).toBe('active');
    expect(after.firstFailureAt).not.toBeNull();
  });

  it('a success ends the failure run', async () => {
    respond = () => ({ status: 503, body: 'down', headers: { 'retry-after': '120' } });
    const { deliveryId, endpoint } = await oneDelivery();
    await deliverWebhook(t.deps, deliveryId, pinned);
    // Retry-After on a 503 lengthens the first wait from 5 s to 120 s.
    expect((await state(deliveryId)).next_attempt_at.getTime() - now.getTime()).toBe(120 * S);
    expect((await t.deps.webhooks.get(endpoint.id)).firstFailureAt).toEqual(now);
    now = new Date(now.getTime() + 120 * S);
    respond = () => ({ status: 200 });
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('succeeded');
    expect((await t.deps.webhooks.get(endpoint.id)).firstFailureAt).toBeNull();
  });

  it('410 Gone disables the endpoint at once; its other deliveries are then not sent', async () => {
    respond = () => ({ status: 410, body: 'gone' });
    const { deliveryId, endpoint, brand } = await oneDelivery();
    expect((await createOrder(t.app, brand)).statusCode).toBe(200);
    const { rows } = await t.pool.query(
      'SELECT id FROM outbox_events WHERE brand_id = $1 ORDER BY seq DESC LIMIT 1',
      [brand.brandId],
    );
    const [second] = await fanOutWebhookEvent(t.deps, rows[0].id);

    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('exhausted');
    const disabled = await t.deps.webhooks.get(endpoint.id);
    expect(disabled).toMatchObject({ status: 'disabled', disabledReason: 'the receiver answered 410 Gone' });
    const sent = receiver.received.length;
    expect(await deliverWebhook(t.deps, second!, pinned)).toBe('endpoint_disabled');
    expect(receiver.received.length).toBe(sent);
    expect(await state(second!)).toMatchObject({ status: 'exhausted', attempt_count: 0 });
    // A disabled endpoint gets no new deliveries either.
    expect(await fanOutWebhookEvent(t.deps, rows[0].id)).toEqual([]);
  });

  it('an endpoint failing for 5 days is disabled', async () => {
    respond = () => ({ status: 500 });
    const { deliveryId, endpoint } = await oneDelivery();
    await t.pool.query('UPDATE webhook_endpoints SET first_failure_at = $2 WHERE id = $1', [
      endpoint.id,
      new Date(now.getTime() - 5 * 24 * H + S),
    ]);
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('failed');
    expect((await t.deps.webhooks.get(endpoint.id)).status).toBe('active');
    now = new Date(now.getTime() + 5 * S);
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('exhausted');
    expect(await t.deps.webhooks.get(endpoint.id)).toMatchObject({
      status: 'disabled',
      disabledReason: expect.stringMatching(/^failing since .* \(5 days\)$/),
    });
  });

  it('a delivery locked by another worker is skipped, never sent twice at once', async () => {
    respond = () => ({ status: 200 });
    const { deliveryId } = await oneDelivery();
    const other = await t.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM webhook_deliveries WHERE id = $1 FOR UPDATE', [deliveryId]);
      const sent = receiver.received.length;
      expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('busy');
      expect(receiver.received.length).toBe(sent);
    } finally {
      await other.query('ROLLBACK');
      other.release();
    }
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('succeeded');
  });

  it('a delivery whose worker died mid-send is claimed again once its lease runs out, not before', async () => {
    respond = () => ({ status: 200 });
    const { deliveryId } = await oneDelivery();
    // A worker claimed it (lease of 30 s) and was killed while sending.
    const claimed = await repo().claimOne(deliveryId, 30_000);
    if (claimed === null || claimed === 'busy') throw new Error('not claimed');
    expect(await claimDue(now)).not.toContain(deliveryId);
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('busy');
    // The lease runs out: any worker takes it again; the dead worker's late outcome, if it ever
    // came, would be dropped (fenced by the lease token).
    await t.pool.query(
      `UPDATE webhook_deliveries SET lease_until = now() - interval '1 second' WHERE id = $1`,
      [deliveryId],
    );
    expect(await deliverWebhook(t.deps, deliveryId, pinned)).toBe('succeeded');
    expect(await repo().settle([lateOutcome(claimed)])).toEqual([]);
    expect(await state(deliveryId)).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });

  it('refuses internal destinations when the endpoint is added (SSRF)', async () => {
    const brand = await createBrandWithKey(t.deps);
    for (const url of [
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
    ]) {
      await expect(t.deps.webhooks.add({ brandId: brand.brandId, url }, testOperator)).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringContaining('only delivered to public addresses'),
      });
    }
    await expect(
      t.deps.webhooks.add({ brandId: brand.brandId, url: 'ftp://x.example/' }, testOperator),
    ).rejects.toThrow(/http or https/);
    await expect(
      t.deps.webhooks.add(
        { brandId: brand.brandId, url: 'http://127.0.0.1/', events: 'order.deleted' },
        testOperator,
      ),
    ).rejects.toThrow(/unknown event type "order.deleted"/);
    await expect(
      t.deps.webhooks.add({ brandId: 'brd_0000000000000000', url: receiver.url() }, testOperator),
    ).rejects.toMatchObject({ code: 'not_found' });
    // Without WEBHOOKS_ALLOW_INSECURE: https only, and loopback is internal too.
    const secure = webhookService({
      ...serviceDeps(),
      destinations: destinationGuard({ allowInsecure: false }),
    });
    await expect(secure.add({ brandId: brand.brandId, url: receiver.url() }, testOperator)).rejects.toThrow(
      /must use https/,
    );
    await expect(
      secure.add({ brandId: brand.brandId, url: 'https://127.0.0.1/' }, testOperator),
    ).rejects.toThrow(/127\.0\.0\.1 is not an allowed address/);
    await expect(t.deps.webhooks.disable('whk_0000000000000000', testOperator)).rejects.toMatchObject({
      code: 'not_found',
    });
    const { rows } = await t.pool.query(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE brand_id = $1',
      [brand.brandId],
    );
    expect(rows[0].n).toBe(0);
  });
});
