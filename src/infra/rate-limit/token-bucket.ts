import type { Decision, RateLimiter } from '../../domain/accounts/ports.ts';

export type { Decision, RateLimiter };

/**
 * Per-key token buckets: `burst` requests at once, refilled at `perSecond`. One bucket per API key,
 * so one brand hammering its key never spends another brand's allowance.
 */
export interface BucketPolicy {
  perSecond: number;
  burst: number;
}

/** The arithmetic shared by the in-memory limiter and (as Lua) the Redis one. */
export function decide(policy: BucketPolicy, tokens: number): Decision {
  const allowed = tokens >= 1;
  const left = allowed ? tokens - 1 : tokens;
  return {
    allowed,
    remaining: Math.floor(left),
    retryAfterMs: allowed ? 0 : Math.ceil(((1 - left) / policy.perSecond) * 1000),
    resetMs: Math.ceil(((policy.burst - left) / policy.perSecond) * 1000),
  };
}

export function memoryRateLimiter(
  policy: BucketPolicy,
  now: () => number = Date.now,
  maxKeys = 100_000,
): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    async take(key) {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: policy.burst, at: t };
      const tokens = Math.min(policy.burst, bucket.tokens + ((t - bucket.at) / 1000) * policy.perSecond);
      const decision = decide(policy, tokens);
      if (!buckets.has(key) && buckets.size >= maxKeys) buckets.delete(buckets.keys().next().value!);
      buckets.set(key, { tokens: decision.allowed ? tokens - 1 : tokens, at: t });
      return decision;
    },
    async refund(key) {
      const bucket = buckets.get(key);
      if (bucket) bucket.tokens = Math.min(policy.burst, bucket.tokens + 1);
    },
    async close() {},
  };
}
