import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
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
});
