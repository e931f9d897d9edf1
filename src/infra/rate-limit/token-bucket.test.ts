import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoryRateLimiter } from './token-bucket.ts';

describe('memory token bucket', () => {
  it('allows the burst, then one request per refill interval', async () => {
    let now = 0;
    const limiter = memoryRateLimiter({ perSecond: 2, burst: 3 }, () => now);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.take('k'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ remaining: 0, retryAfterMs: 500 });
    expect((await limiter.take('other')).allowed).toBe(true);
    now = 499;
    expect((await limiter.take('k')).allowed).toBe(false);
    now = 500;
    expect((await limiter.take('k')).allowed).toBe(true);
  });

  it('gives back a request taken, never past the burst', async () => {
    const now = 0;
    const limiter = memoryRateLimiter({ perSecond: 1, burst: 2 }, () => now);
    expect((await limiter.take('k')).remaining).toBe(1);
    await limiter.refund('k');
    await limiter.refund('k');
    await limiter.refund('unknown');
    const after = [];
    for (let i = 0; i < 3; i++) after.push((await limiter.take('k')).allowed);
    expect(after).toEqual([true, true, false]);
  });

  it('never allows more than burst + rate × elapsed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 200 }),
        async (perSecond, burst, gaps) => {
          let now = 0;
          const limiter = memoryRateLimiter({ perSecond, burst }, () => now);
          let allowed = 0;
          for (const gap of gaps) {
            now += gap;
            if ((await limiter.take('k')).allowed) allowed++;
          }
          return allowed <= burst + Math.floor((now / 1000) * perSecond) + 1e-9;
        },
      ),
      { numRuns: 200 },
    );
  });
});
