import { AppError } from '../../errors.ts';
import type { BucketPolicy, RateLimiter } from '../../infra/rate-limit/token-bucket.ts';

/**
 * Unknown API keys per client address: 20 at once, then one every 5 seconds. A key this instance
 * does not know costs a database lookup, and a well-formed random key is never in any key's bucket,
 * so without this a caller could make the database look up keys as fast as it can send them.
 */
export const UNKNOWN_KEY_POLICY: BucketPolicy = { perSecond: 0.2, burst: 20 };

/** Addresses kept blocked in memory at most; the oldest is dropped past it. */
const MAX_BLOCKED = 100_000;

/** Failed key lookups counted per client address, and the addresses blocked for them. */
export interface UnknownKeyLimit {
  /** The 429 to answer at once when `address` is blocked, else null (look the key up). */
  refusal(address: string): TooManyUnknownKeys | null;
  /**
   * Counts one unknown key from `address`: the 429 to answer instead of the 401 when it is one
   * too many (the address is then blocked), else null.
   */
  failed(address: string): Promise<TooManyUnknownKeys | null>;
  close(): Promise<void>;
}

/**
 * Counts the failed key lookups of each address in `limiter` (in memory, or Redis to share the count
 * between instances). Once an address is past the limit it is blocked on this instance until its
 * `Retry-After`: its keys that are not in the authenticator's cache are then refused with 429
 * without a lookup (a valid key verified in the last seconds still passes from the cache).
 */
export function unknownKeyLimit(limiter: RateLimiter, now: () => number = Date.now): UnknownKeyLimit {
  const blockedUntil = new Map<string, number>();
  return {
    refusal(address: string): TooManyUnknownKeys | null {
      const until = blockedUntil.get(address);
      if (until === undefined) return null;
      const waitMs = until - now();
      if (waitMs > 0) return tooManyUnknownKeys(waitMs);
      blockedUntil.delete(address);
      return null;
    },
    async failed(address: string): Promise<TooManyUnknownKeys | null> {
      const decision = await limiter.take(`unknown-key:${address}`);
      if (decision.allowed) return null;
      if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value!);
      blockedUntil.set(address, now() + decision.retryAfterMs);
      return tooManyUnknownKeys(decision.retryAfterMs);
    },
    close: () => limiter.close(),
  };
}

export type TooManyUnknownKeys = AppError & { retryAfterSeconds: number };

/** 429 `rate_limited` carrying its Retry-After in seconds (the auth hook sets the header). */
function tooManyUnknownKeys(waitMs: number): TooManyUnknownKeys {
  return Object.assign(
    new AppError(
      'rate_limited',
      'Too many unknown or revoked API keys from this address; retry after Retry-After seconds.',
    ),
    { retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) },
  );
}
