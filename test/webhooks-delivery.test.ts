import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Runner, startWorker } from '../src/worker.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import { drained, eventually, type Receiver, startReceiver, verifyWith } from './support/webhook-receiver.ts';

// A database of its own: a worker here must not take jobs of other test files, nor they ours.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let runner: Runner;
let receiver: Receiver;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url, webhooksAllowInsecure: true } });
  receiver = await startReceiver();
  runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 4 });
});
afterAll(async () => {
  await runner?.stop();
  await receiver?.close();
  await t?.close();
  await scratch?.drop();
});

/** A brand with one endpoint on the shared receiver, under a path of its own. */
async function brandWithEndpoint(events?: string) {
  const brand = await createBrandWithKey(t.deps);
  const path = `/${brand.brandId}`;
  const { endpoint, secret } = await t.deps.webhooks.add(
    {
      brandId: brand.brandId,
      url: receiver.url(path),
      events,
    },
    testOperator,
  );
  const hooks = () => receiver.received.filter((r) => r.path === path);
  const waitForHooks = (n: number) => eventually(async () => hooks().length >= n && hooks());
  return { brand, endpoint, secret, hooks, waitForHooks };
}

async function deliveriesOf(endpointId: string) {
  return t.deps.webhooks.deliveries(endpointId);
}

describe('webhook delivery', () => {
  it('delivers order.created, signed per Standard Webhooks, with the event id as webhook-id', async () => {
    const { brand, endpoint, secret, waitForHooks } = await brandWithEndpoint();
    const created = await createOrder(t.app, brand);
    expect(created.statusCode).toBe(200);

    const [hook] = await waitForHooks(1);
    const payload = verifyWith(secret, hook!) as Record<string, any>;
    const { rows } = await t.pool.query('SELECT id, created_at FROM outbox_events WHERE brand_id = $1', [
      brand.brandId,
    ]);
    expect(rows).toHaveLength(1);
    expect(hook!.headers['webhook-id']).toBe(rows[0].id);
    expect(hook!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(hook!.headers['content-type']).toBe('application/json');
    expect(payload).toEqual({
      type: 'order.created',
      id: rows[0].id,
      created_at: rows[0].created_at.toISOString(),
      data: { order: expect.objectContaining({ tracking_ref: created.data.trackingRef, status: 'pending' }) },
    });
    expect(() => verifyWith('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', hook!)).toThrow();

    const deliveries = await eventually(async () => {
      const list = await deliveriesOf(endpoint.id);
      return list[0]?.status === 'succeeded' && list;
    });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ attemptCount: 1, lastStatus: 200, nextAttemptAt: null });
    expect(deliveries[0]!.attempts).toEqual([
      expect.objectContaining({ attempt: 1, responseStatus: 200, responseExcerpt: 'ok', error: null }),
    ]);
  });

  it('delivers order.status_changed with previous_status, only to endpoints subscribed to it', async () => {
    const { brand, secret, hooks, waitForHooks } = await brandWithEndpoint('order.status_changed');
    const created = await createOrder(t.app, brand);
    await t.deps.orders.setStatus(created.data.trackingRef, 'picked_up', 'Scan', testOperator);
    await t.deps.orders.setStatus(created.data.trackingRef, 'in_transit', null, testOperator);
    const received = await waitForHooks(2);
    const payloads = received.map((h) => verifyWith(secret, h) as Record<string, any>);
    payloads.sort((a, b) => a.created_at.localeCompare(b.created_at));
    expect(payloads.map((p) => [p.type, p.data.previous_status, p.data.order.status])).toEqual([
      ['order.status_changed', 'pending', 'picked_up'],
      ['order.status_changed', 'picked_up', 'in_transit'],
    ]);
    expect(new Set(received.map((h) => h.headers['webhook-id'])).size).toBe(2);
    expect(hooks().some((h) => h.json.type === 'order.created')).toBe(false);
  });

  it('emits nothing for a rejected order creation', async () => {
    const { brand, endpoint } = await brandWithEndpoint();
    const rejected = await createOrder(t.app, brand, {
      ...VALID_ORDER,
      delivery_address: '1 place Bellecour 69002 Lyon',
    });
    expect(rejected.statusCode).toBe(422);
    const { rows } = await t.pool.query('SELECT count(*)::int AS n FROM outbox_events WHERE brand_id = $1', [
      brand.brandId,
    ]);
    expect(rows[0].n).toBe(0);
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
  });

  it('signs with both secrets after a rotation, and replays with the same webhook-id', async () => {
    const { brand, endpoint, secret: oldSecret, waitForHooks } = await brandWithEndpoint();
    const { secret: newSecret } = await t.deps.webhooks.rotateSecret(endpoint.id, testOperator);
    expect(newSecret).not.toBe(oldSecret);
    await createOrder(t.app, brand);
    const [hook] = await waitForHooks(1);
    expect(hook!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWith(newSecret, hook!)).toMatchObject({ type: 'order.created' });
    expect(verifyWith(oldSecret, hook!)).toMatchObject({ type: 'order.created' });

    const [original] = await eventually(async () => {
      const list = await deliveriesOf(endpoint.id);
      return list[0]?.status === 'succeeded' && list;
    });
    const replay = await t.deps.webhooks.replayDelivery(original!.id, testOperator);
    expect(replay).toMatchObject({ origin: 'replay', replayOf: original!.id, eventId: original!.eventId });
    const [, again] = await waitForHooks(2);
    expect(again!.headers['webhook-id']).toBe(hook!.headers['webhook-id']);
    expect(again!.body).toBe(hook!.body);
    expect(verifyWith(newSecret, again!)).toMatchObject({ id: original!.eventId });
  });

  it('replays every event since a time to an endpoint, including those missed while disabled', async () => {
    const { brand, endpoint, waitForHooks } = await brandWithEndpoint();
    const since = new Date(Date.now() - 1000);
    await t.deps.webhooks.disable(endpoint.id, testOperator);
    await createOrder(t.app, brand);
    await createOrder(t.app, brand);
    await drained(t.pool, 'webhooks_fan_out');
    expect(await deliveriesOf(endpoint.id)).toEqual([]);
    await expect(t.deps.webhooks.replaySince(since, endpoint.id, testOperator)).rejects.toThrow(/disabled/);
    await t.deps.webhooks.enable(endpoint.id, testOperator);
    const ids = await t.deps.webhooks.replaySince(since, endpoint.id, testOperator);
    expect(ids).toHaveLength(2);
    const hooks = await waitForHooks(2);
    expect(hooks.map((h) => h.json.type)).toEqual(['order.created', 'order.created']);
  });
});
