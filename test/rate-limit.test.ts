import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canConnect } from '../src/infra/embedded-postgres.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp } from './support/app.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisReachable = await canConnect(Number(new URL(REDIS_URL).port || 6379), new URL(REDIS_URL).hostname);

const LIMITED = { rateLimitPerSecond: 2, rateLimitBurst: 3 };

describe('rate limiting per API key (in memory)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: LIMITED });
  });
  afterAll(() => t.close());

  it('answers 429 rate_limited with Retry-After and RateLimit headers past the burst, per key', async () => {
    const noisy = await createBrandWithKey(t.deps);
    const quiet = await createBrandWithKey(t.deps);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await call(t.app, { method: 'GET', url: `${API}/me`, headers: noisy.headers });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.data.error).toBe('rate_limited');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last!.headers['ratelimit-policy']).toBe('"per-key";q=3;w=2');
    expect(last!.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+$/);
    // Another brand's key is untouched.
    const other = await call(t.app, { method: 'GET', url: `${API}/me`, headers: quiet.headers });
    expect(other.statusCode).toBe(200);
    expect(other.headers.ratelimit).toMatch(/r=2/);
    // Public routes are not limited per key.
    expect(
      (await call(t.app, { method: 'GET', url: `${API}/ping` })).headers['ratelimit-policy'],
    ).toBeUndefined();
    await new Promise((r) => setTimeout(r, 550));
    expect((await call(t.app, { method: 'GET', url: `${API}/me`, headers: noisy.headers })).statusCode).toBe(
      200,
    );
  });
});

describe.skipIf(!redisReachable)('rate limiting shared through Redis', () => {
  it('counts one key across two instances', async () => {
    const a = await buildTestApp({ config: { ...LIMITED, redisUrl: REDIS_URL } });
    const b = await buildTestApp({ config: { ...LIMITED, redisUrl: REDIS_URL } });
    try {
      const brand = await createBrandWithKey(a.deps);
      const statuses: number[] = [];
      for (const app of [a, b, a, b])
        statuses.push(
          (await call(app.app, { method: 'GET', url: `${API}/me`, headers: brand.headers })).statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
