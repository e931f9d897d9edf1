/**
 * Every write of the public API takes an Idempotency-Key the same way (replay with
 * `Idempotent-Replayed: true`, 422 for the key with another request, 409 while the first runs);
 * cancelling an order already cancelled is no error and writes nothing; a field sent to an
 * operation that takes no body is a 400, as an unknown field is anywhere.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { createOrder, subscribeToWebhooks } from './support/orders.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ config: { webhooksAllowInsecure: true } });
});
afterAll(() => t.close());

const cancel = (brand: TestBrand, ref: string, options: { key?: string; payload?: unknown } = {}) =>
  call(t.app, {
    method: 'POST',
    url: `${API}/orders/${ref}/cancel`,
    headers: { ...brand.headers, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
  });

const patch = (brand: TestBrand, ref: string, payload: object, key?: string) =>
  call(t.app, {
    method: 'PATCH',
    url: `${API}/orders/${ref}`,
    headers: { ...brand.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });

async function newOrder(brand: TestBrand): Promise<string> {
  const created = await createOrder(t.app, brand);
  expect(created.statusCode).toBe(200);
  return created.data.trackingRef as string;
}

/** The brand's outbox events of each type, and its orders' history entries. */
async function written(brandId: string) {
  const events = await t.pool.query<{ type: string }>(
    'SELECT type FROM outbox_events WHERE brand_id = $1 ORDER BY seq',
    [brandId],
  );
  const history = await t.pool.query<{ n: number }>(
    'SELECT coalesce(sum(json_array_length(history)), 0)::int AS n FROM orders WHERE brand_id = $1',
    [brandId],
  );
  return { events: events.rows.map((r) => r.type), history: history.rows[0]!.n };
}

/** Holds the key's lock, as a first request still being processed does (idempotency-repository.ts). */
async function whileKeyHeld<T>(brandId: string, key: string, run: () => Promise<T>): Promise<T> {
  const lockId = createHash('sha256').update(`${brandId}\u0000${key}`).digest().readBigInt64BE(0);
  const client = await t.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [lockId.toString()]);
    return await run();
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}

describe('POST /orders/{ref}/cancel', () => {
  it('answers 200 with the order when it is already cancelled, and writes nothing', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const ref = await newOrder(brand);
    const first = await cancel(brand, ref);
    expect(first.statusCode).toBe(200);
    const before = await written(brand.brandId);
    expect(before.events).toEqual(['order.created', 'order.status_changed']);

    for (const payload of [undefined, {}]) {
      const again = await cancel(brand, ref, { payload });
      expect(again.statusCode).toBe(200);
      expect(again.data.order).toEqual(first.data.order);
    }
    expect(await written(brand.brandId)).toEqual(before);
  });

  it('refuses a body with a field (400, naming it), as creation refuses an unknown field, and cancels nothing', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = await newOrder(brand);
    const refused = await cancel(brand, ref, { payload: { reason: 'customer changed their mind' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.data).toMatchObject({
      ok: false,
      error: 'invalid_request',
      details: [{ field: 'reason', message: 'is not a known field' }],
    });
    const created = await createOrder(t.app, brand, { ...VALID_ORDER_WITH_REASON });
    expect(created.data.details).toEqual(refused.data.details);
    const order = await call(t.app, { method: 'GET', url: `${API}/orders/${ref}`, headers: brand.headers });
    expect(order.data.order.status).toBe('pending');
  });

  it('honours an Idempotency-Key: replayed, 422 for another order, 409 while the first runs', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const ref = await newOrder(brand);
    const other = await newOrder(brand);

    const held = await whileKeyHeld(brand.brandId, 'cancel-1', () => cancel(brand, ref, { key: 'cancel-1' }));
    expect(held.statusCode).toBe(409);
    expect(held.data.error).toBe('idempotency_conflict');
    expect((await written(brand.brandId)).events).toEqual(['order.created', 'order.created']);

    const first = await cancel(brand, ref, { key: 'cancel-1' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await written(brand.brandId);
    // Any spelling of the reference is the same request.
    const replay = await cancel(brand, ref.toLowerCase(), { key: 'cancel-1', payload: {} });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);

    const reused = await cancel(brand, other, { key: 'cancel-1' });
    expect(reused.statusCode).toBe(422);
    expect(reused.data.error).toBe('idempotency_key_reused');
    const otherOrder = await call(t.app, {
      method: 'GET',
      url: `${API}/orders/${other}`,
      headers: brand.headers,
    });
    expect(otherOrder.data.order.status).toBe('pending');
    expect(await written(brand.brandId)).toEqual(after);
  });
});

const VALID_ORDER_WITH_REASON = {
  customer_email: 'jane@example.com',
  delivery_address: '12 rue Oberkampf 75011 Paris',
  reason: 'customer changed their mind',
};

describe('PATCH /orders/{ref}', () => {
  it('honours an Idempotency-Key: one change, replayed as first answered; 422 for another body; 409 while running', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const ref = await newOrder(brand);
    const change = {
      delivery_recipient: 'Jeanne Martin',
      delivery_address: '4 avenue de la République 94300 Vincennes',
    };

    const held = await whileKeyHeld(brand.brandId, 'patch-1', () => patch(brand, ref, change, 'patch-1'));
    expect(held.statusCode).toBe(409);
    expect(held.data.error).toBe('idempotency_conflict');

    const first = await patch(brand, ref, change, 'patch-1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.data.order.delivery_city).toBe('Vincennes');
    const after = await written(brand.brandId);

    const reordered = Object.fromEntries(Object.entries(change).reverse());
    const replay = await patch(brand, ref, reordered, 'patch-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);
    // Nothing written again: no second "Updated …" in the history, no second event.
    expect(await written(brand.brandId)).toEqual(after);

    const reused = await patch(brand, ref, { delivery_recipient: 'Someone else' }, 'patch-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.data.error).toBe('idempotency_key_reused');
    expect(await written(brand.brandId)).toEqual(after);
  });

  it('stores nothing for a refused change: the key is free again', async () => {
    const brand = await createBrandWithKey(t.deps);
    const ref = await newOrder(brand);
    const outside = await patch(brand, ref, { delivery_address: '1 place Bellecour 69002 Lyon' }, 'patch-2');
    expect(outside.statusCode).toBe(422);
    const good = await patch(brand, ref, { delivery_recipient: 'Jeanne Martin' }, 'patch-2');
    expect(good.statusCode).toBe(200);
    expect(good.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('POST /labels', () => {
  it('honours an Idempotency-Key: the first print recorded once, a replay prints the same labels again', async () => {
    const brand = await createBrandWithKey(t.deps);
    await subscribeToWebhooks(t.pool, brand.brandId);
    const refs = [await newOrder(brand), await newOrder(brand)];
    const print = (body: object, key: string) =>
      call(t.app, {
        method: 'POST',
        url: `${API}/labels`,
        headers: { ...brand.headers, 'idempotency-key': key },
        payload: body,
      });

    const held = await whileKeyHeld(brand.brandId, 'labels-1', () =>
      print({ tracking_refs: refs, format: 'zpl' }, 'labels-1'),
    );
    expect(held.statusCode).toBe(409);
    expect((await written(brand.brandId)).events).not.toContain('order.labelled');

    const first = await print({ tracking_refs: refs, format: 'zpl' }, 'labels-1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/zpl/);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const after = await written(brand.brandId);
    expect(after.events.filter((type) => type === 'order.labelled')).toHaveLength(2);

    const replay = await print({ format: 'zpl', tracking_refs: refs }, 'labels-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-disposition']).toBe(first.headers['content-disposition']);
    expect(replay.body).toBe(first.body);
    expect(await written(brand.brandId)).toEqual(after);

    const reused = await print({ tracking_refs: [refs[0]], format: 'zpl' }, 'labels-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.data.error).toBe('idempotency_key_reused');
  });
});

describe('POST /webhook-subscriptions', () => {
  it('honours an Idempotency-Key: one subscription, its secret replayed; 422 for another body', async () => {
    const brand = await createBrandWithKey(t.deps);
    const body = {
      url: 'http://127.0.0.1:9/zap',
      event_types: ['order.created'],
      description: 'Zapier: New order',
    };
    const subscribe = (payload: object, key: string) =>
      call(t.app, {
        method: 'POST',
        url: `${API}/webhook-subscriptions`,
        headers: { ...brand.headers, 'idempotency-key': key },
        payload,
      });
    const held = await whileKeyHeld(brand.brandId, 'zap-1', () => subscribe(body, 'zap-1'));
    expect(held.statusCode).toBe(409);

    const first = await subscribe(body, 'zap-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await subscribe(body, 'zap-1');
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.data).toEqual(first.data);
    const reused = await subscribe({ ...body, event_types: ['order.delivered'] }, 'zap-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.data.error).toBe('idempotency_key_reused');

    const list = await call(t.app, {
      method: 'GET',
      url: `${API}/webhook-subscriptions`,
      headers: brand.headers,
    });
    expect(list.data.subscriptions).toHaveLength(1);
  });

  it('refuses a body with a field on DELETE, which takes none', async () => {
    const brand = await createBrandWithKey(t.deps);
    const created = await call(t.app, {
      method: 'POST',
      url: `${API}/webhook-subscriptions`,
      headers: brand.headers,
      payload: { url: 'http://127.0.0.1:9/n8n', event_types: ['order.created'] },
    });
    const url = `${API}/webhook-subscriptions/${created.data.subscription.id}`;
    const refused = await call(t.app, {
      method: 'DELETE',
      url,
      headers: brand.headers,
      payload: { force: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.data.details).toEqual([{ field: 'force', message: 'is not a known field' }]);
    expect((await call(t.app, { method: 'DELETE', url, headers: brand.headers })).statusCode).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('lists the Idempotency-Key header, so spelled, on every write but the quote', async () => {
    const doc = (await call(t.app, { method: 'GET', url: `${API}/openapi.json` })).data;
    const keyed: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const names = (operation.parameters ?? [])
          .filter((p: any) => p.in === 'header')
          .map((p: any) => p.name);
        if (names.includes('Idempotency-Key')) keyed.push(`${method.toUpperCase()} ${path}`);
        expect(names).not.toContain('idempotency-key');
      }
    }
    expect(keyed.sort()).toEqual(
      [
        'POST /orders',
        'PATCH /orders/{trackingRef}',
        'POST /orders/{trackingRef}/cancel',
        'POST /labels',
        'POST /pickups',
        'POST /webhook-subscriptions',
      ].sort(),
    );
    expect(doc.paths['/rates'].post.description).toContain('takes no `Idempotency-Key`');
    expect(doc.paths['/orders/{trackingRef}/cancel'].post.requestBody.required).toBe(false);
  });
});
