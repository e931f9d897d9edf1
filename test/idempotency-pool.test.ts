import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp } from './support/app.ts';
import { brandFootprint, createOrder, VALID_ORDER } from './support/orders.ts';

// A pool of 2 connections: a request holding one in its Idempotency-Key transaction must never
// need a second one (a cold cache read inside the transaction deadlocked the pool under load).
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ poolSize: 2 });
});
afterAll(() => t.close());

describe('Idempotency-Key transactions under a small pool', () => {
  it('creates 20 concurrent orders of a brand whose caches are cold, each once', async () => {
    const brand = await createBrandWithKey(t.deps);
    const run = randomBytes(4).toString('hex');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createOrder(t.app, brand, VALID_ORDER, { 'idempotency-key': `pool-${run}-${i}` }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect((await brandFootprint(t.pool, brand.brandId)).orders).toBe(20);
  }, 20_000);

  it("edits and cancels 20 orders concurrently, each with its key, the reads done before each key's transaction", async () => {
    const brand = await createBrandWithKey(t.deps);
    const run = randomBytes(4).toString('hex');
    const refs: string[] = [];
    for (let i = 0; i < 20; i++) refs.push((await createOrder(t.app, brand)).data.trackingRef);
    const write = (method: 'PATCH' | 'POST', url: string, key: string, payload?: object) =>
      call(t.app, {
        method,
        url: `${API}${url}`,
        headers: { ...brand.headers, 'idempotency-key': key },
        ...(payload ? { payload } : {}),
      });
    const edits = await Promise.all(
      refs.map((ref, i) =>
        // A new address: located and priced (the grid read) before the transaction opens.
        write('PATCH', `/orders/${ref}`, `edit-${run}-${i}`, {
          delivery_address: '4 avenue de la République 94300 Vincennes',
        }),
      ),
    );
    expect(edits.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const cancels = await Promise.all(
      refs.map((ref, i) => write('POST', `/orders/${ref}/cancel`, `cancel-${run}-${i}`)),
    );
    expect(cancels.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(cancels.every((r) => r.data.order.status === 'cancelled')).toBe(true);
  }, 30_000);
});
