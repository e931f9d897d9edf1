import { AppError } from '../../errors.ts';
import type { RateLimiter } from './ports.ts';

/**
 * Counts a sign-in attempt against its per-address and per-account limits before anything is
 * checked, so attempts made at once are all counted; `succeeded` gives them back, so only failures
 * stay counted: people behind one office's or depot's address never lock each other out
 * (ASVS 2.2.1), while guessing one account from many addresses still is.
 */
export async function countSignInAttempt(
  limiter: RateLimiter,
  scope: string,
  account: string,
  ip: string,
): Promise<{ succeeded(): Promise<void> }> {
  const keys = [`${scope}:ip:${ip}`, `${scope}:acct:${account}`];
  for (const [i, key] of keys.entries()) {
    if (!(await limiter.take(key)).allowed) {
      // The attempt refused here is not checked: the keys taken before this one are given back.
      for (const taken of keys.slice(0, i)) await limiter.refund(taken);
      throw new AppError(
        'rate_limited',
        'Too many failed sign-in attempts: wait a few minutes and try again.',
      );
    }
  }
  return {
    async succeeded() {
      for (const key of keys) await limiter.refund(key);
    },
  };
}
