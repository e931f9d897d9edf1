import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedAttemptLimit } from '../src/http/shared/failed-attempt-limit.ts';
import {
  operatorAccess,
  sharedOpsToken,
  WRONG_OPS_TOKEN_POLICY,
} from '../src/http/shared/operator-access.ts';
import { UNKNOWN_KEY_POLICY } from '../src/http/shared/unknown-key-limit.ts';
import { canConnect } from '../src/infra/embedded-postgres.ts';
import { memoryRateLimiter } from '../src/infra/rate-limit/token-bucket.ts';
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

/** A well-formed key no brand has, sent from `address`. */
const unknownKeyFrom = (address: string) => ({
  method: 'GET' as const,
  url: `${API}/me`,
  remoteAddress: address,
  headers: { authorization: `Bearer dlv_${randomBytes(32).toString('hex')}` },
});
/** An address of its own per run: Redis keeps the counts between runs. */
const freshAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;

describe('unknown API keys per client address (in memory)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: LIMITED });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limit, then refuses without a database lookup', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < UNKNOWN_KEY_POLICY.burst; i++)
      statuses.push((await call(t.app, unknownKeyFrom(address))).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const refused = await call(t.app, unknownKeyFrom(address));
    expect(refused.statusCode).toBe(429);
    expect(refused.data).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Blocked: the next unknown keys cost no query.
    let queries = 0;
    const count = () => queries++;
    t.pool.on('acquire', count);
    try {
      for (let i = 0; i < 5; i++) {
        const res = await call(t.app, unknownKeyFrom(address));
        expect(res.statusCode).toBe(429);
        expect(res.headers['retry-after']).toBeDefined();
      }
    } finally {
      t.pool.off('acquire', count);
    }
    expect(queries).toBe(0);
    // Another address is untouched, and so is a valid key from it.
    expect((await call(t.app, unknownKeyFrom(freshAddress()))).statusCode).toBe(401);
    const brand = await createBrandWithKey(t.deps);
    const res = await call(t.app, {
      method: 'GET',
      url: `${API}/me`,
      remoteAddress: freshAddress(),
      headers: brand.headers,
    });
    expect(res.statusCode).toBe(200);
  });

  it('is off with the other limits (RATE_LIMIT_PER_SECOND=0)', async () => {
    const plain = await buildTestApp();
    try {
      const address = freshAddress();
      for (let i = 0; i <= UNKNOWN_KEY_POLICY.burst; i++)
        expect((await call(plain.app, unknownKeyFrom(address))).statusCode).toBe(401);
    } finally {
      await plain.close();
    }
  });
});

const OPS_TOKEN = `ops-${randomBytes(24).toString('hex')}`;
/** An operations API request from `address` with `token` (none: no Authorization header). */
const opsFrom = (address: string, token?: string) => ({
  method: 'GET' as const,
  url: '/ops/v1/couriers',
  remoteAddress: address,
  headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
});
const wrongToken = () => randomBytes(24).toString('hex');

// #36 item 3: 60 wrong tokens in 0.3 s were 60 × 401, guessing at the speed of the network.
describe('wrong operator tokens per client address (in memory)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The default test configuration: the per-key limits off (RATE_LIMIT_PER_SECOND=0), this one still on.
    t = await buildTestApp({ config: { opsToken: OPS_TOKEN } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past the limit, then refuses the address even the right token', async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < WRONG_OPS_TOKEN_POLICY.burst; i++)
      statuses.push((await call(t.app, opsFrom(address, wrongToken()))).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const refused = await call(t.app, opsFrom(address, wrongToken()));
    expect(refused.statusCode).toBe(429);
    expect(refused.data).toMatchObject({ ok: false, error: 'rate_limited' });
    expect(refused.data.message).toMatch(/wrong operator credentials/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Blocked: the right token gets the same answer, so the 429s tell a guesser nothing.
    const right = await call(t.app, opsFrom(address, OPS_TOKEN));
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    // Another address is untouched.
    expect((await call(t.app, opsFrom(freshAddress(), OPS_TOKEN))).statusCode).toBe(200);
    expect((await call(t.app, opsFrom(freshAddress(), wrongToken()))).statusCode).toBe(401);
  });

  it('never counts the right token, nor a request without any', async () => {
    const address = freshAddress();
    for (let i = 0; i < 3 * WRONG_OPS_TOKEN_POLICY.burst; i++) {
      expect((await call(t.app, opsFrom(address, OPS_TOKEN))).statusCode).toBe(200);
      expect((await call(t.app, opsFrom(address))).statusCode).toBe(401);
    }
    expect((await call(t.app, opsFrom(address, wrongToken()))).statusCode).toBe(401);
  });

  it('lets the address in again once its Retry-After has passed', async () => {
    let now = Date.parse('2026-11-24T09:00:00Z');
    const clock = () => now;
    const access = operatorAccess(
      sharedOpsToken(OPS_TOKEN),
      failedAttemptLimit(
        memoryRateLimiter(WRONG_OPS_TOKEN_POLICY, clock),
        { bucket: 'ops', message: 'no' },
        clock,
      ),
    );
    const bearer = (token: string) => `Bearer ${token}`;
    for (let i = 0; i < WRONG_OPS_TOKEN_POLICY.burst; i++)
      await expect(access.authenticate(bearer(wrongToken()), 'a')).rejects.toMatchObject({
        code: 'unauthorized',
      });
    const blocked = await access.authenticate(bearer(wrongToken()), 'a').catch((err) => err);
    expect(blocked).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 10 });
    now += 9_000;
    await expect(access.authenticate(bearer(OPS_TOKEN), 'a')).rejects.toMatchObject({ code: 'rate_limited' });
    now += 1_000;
    await expect(access.authenticate(bearer(OPS_TOKEN), 'a')).resolves.toEqual({ credential: 'ops_token' });
  });
});

describe.skipIf(!redisReachable)('rate limiting shared through Redis', () => {
  it('counts the wrong operator tokens of one address across two instances', async () => {
    const a = await buildTestApp({ config: { opsToken: OPS_TOKEN, redisUrl: REDIS_URL } });
    const b = await buildTestApp({ config: { opsToken: OPS_TOKEN, redisUrl: REDIS_URL } });
    try {
      const address = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i <= WRONG_OPS_TOKEN_POLICY.burst; i++)
        statuses.push((await call((i % 2 ? a : b).app, opsFrom(address, wrongToken()))).statusCode);
      expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('counts the unknown keys of one address across two instances', async () => {
    const a = await buildTestApp({ config: { ...LIMITED, redisUrl: REDIS_URL } });
    const b = await buildTestApp({ config: { ...LIMITED, redisUrl: REDIS_URL } });
    try {
      const address = freshAddress();
      const statuses: number[] = [];
      for (let i = 0; i <= UNKNOWN_KEY_POLICY.burst; i++)
        statuses.push((await call((i % 2 ? a : b).app, unknownKeyFrom(address))).statusCode);
      expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('gives back a request taken (a sign-in that succeeded), never past the burst', async () => {
    const { redisRateLimiter } = await import('../src/infra/rate-limit/redis-rate-limiter.ts');
    const limiter = redisRateLimiter(REDIS_URL, { perSecond: 0.001, burst: 2 });
    try {
      // Until Redis answers, the limiter fails open (a full bucket): wait for a real answer.
      const warmUp = `refund-warm-up:${randomBytes(8).toString('hex')}`;
      for (let i = 0; i < 100 && (await limiter.take(warmUp)).remaining === 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const key = `refund-test:${randomBytes(8).toString('hex')}`;
      expect((await limiter.take(key)).remaining).toBe(1);
      await limiter.refund(key);
      await limiter.refund(key);
      const after = [];
      for (let i = 0; i < 3; i++) after.push((await limiter.take(key)).allowed);
      expect(after).toEqual([true, true, false]);
    } finally {
      await limiter.close();
    }
  });

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
