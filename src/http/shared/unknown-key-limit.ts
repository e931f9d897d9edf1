import type { BucketPolicy, RateLimiter } from '../../infra/rate-limit/token-bucket.ts';
import { type FailedAttemptLimit, failedAttemptLimit } from './failed-attempt-limit.ts';

/**
 * Unknown API keys per client address: 20 at once, then one every 5 seconds. A key this instance
 * does not know costs a database lookup, and a well-formed random key is never in any key's bucket,
 * so without this a caller could make the database look up keys as fast as it can send them.
 */
export const UNKNOWN_KEY_POLICY: BucketPolicy = { perSecond: 0.2, burst: 20 };

/**
 * The failed key lookups of each address. Once an address is past the limit, its keys that are not
 * in the authenticator's cache are refused with 429 without a lookup (a valid key verified in the
 * last seconds still passes from the cache).
 */
export function unknownKeyLimit(limiter: RateLimiter, now: () => number = Date.now): FailedAttemptLimit {
  return failedAttemptLimit(
    limiter,
    {
      bucket: 'unknown-key',
      message: 'Too many unknown or revoked API keys from this address; retry after Retry-After seconds.',
    },
    now,
  );
}
