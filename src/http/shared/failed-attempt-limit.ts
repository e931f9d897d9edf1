import { AppError } from '../../errors.ts';
import type { RateLimiter } from '../../infra/rate-limit/token-bucket.ts';

/** Addresses kept blocked in memory at most; the oldest is dropped past it. */
const MAX_BLOCKED = 100_000;

/**
 * Failed credentials counted per client address, and the addresses blocked for them: what the
 * unknown API keys and the wrong operator tokens share.
 */
export interface FailedAttemptLimit {
  /** The 429 to answer at once when `address` is blocked, else null (check the credential). */
  refusal(address: string): TooManyAttempts | null;
  /**
   * Counts one failed credential from `address`: the 429 to answer instead of the 401 when it is
   * one too many (the address is then blocked), else null.
   */
  failed(address: string): Promise<TooManyAttempts | null>;
  close(): Promise<void>;
}

/** A 429 `rate_limited` carrying its Retry-After in seconds (the auth hook sets the header). */
export type TooManyAttempts = AppError & { retryAfterSeconds: number };

export const isTooManyAttempts = (err: unknown): err is TooManyAttempts =>
  err instanceof AppError && typeof (err as Partial<TooManyAttempts>).retryAfterSeconds === 'number';

/**
 * Counts the failures of each address in `limiter` (in memory, or Redis to share the count between
 * instances) under `bucket`. Once an address is past the limit it is blocked on this instance
 * until its `Retry-After`: the caller then refuses it without checking anything (`refusal`).
 * `message` says what was refused, in the 429's words.
 */
export function failedAttemptLimit(
  limiter: RateLimiter,
  what: { bucket: string; message: string },
  now: () => number = Date.now,
): FailedAttemptLimit {
  const blockedUntil = new Map<string, number>();
  const tooMany = (waitMs: number): TooManyAttempts =>
    Object.assign(new AppError('rate_limited', what.message), {
      retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
    });
  return {
    refusal(address: string): TooManyAttempts | null {
      const until = blockedUntil.get(address);
      if (until === undefined) return null;
      const waitMs = until - now();
      if (waitMs > 0) return tooMany(waitMs);
      blockedUntil.delete(address);
      return null;
    },
    async failed(address: string): Promise<TooManyAttempts | null> {
      const decision = await limiter.take(`${what.bucket}:${address}`);
      if (decision.allowed) return null;
      if (blockedUntil.size >= MAX_BLOCKED) blockedUntil.delete(blockedUntil.keys().next().value!);
      blockedUntil.set(address, now() + decision.retryAfterMs);
      return tooMany(decision.retryAfterMs);
    },
    close: () => limiter.close(),
  };
}
