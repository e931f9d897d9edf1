import { createHash, timingSafeEqual } from 'node:crypto';
import { OPS_TOKEN_MIN_LENGTH } from '../../config.ts';
import { AppError } from '../../errors.ts';
import type { BucketPolicy, RateLimiter } from '../../infra/rate-limit/token-bucket.ts';
import { bearerToken } from './bearer.ts';
import { type FailedAttemptLimit, failedAttemptLimit } from './failed-attempt-limit.ts';

/**
 * Wrong operator tokens per client address: 10 at once, then one every 10 seconds. A right token
 * is never counted; past the limit the address is refused everything, the right token included,
 * until its Retry-After (else the 429s would leave the guesses' answers readable).
 */
export const WRONG_OPS_TOKEN_POLICY: BucketPolicy = { perSecond: 0.1, burst: 10 };

export const OPS_UNAUTHORIZED_MESSAGE = 'The operations API needs "Authorization: Bearer <OPS_TOKEN>".';
export const WRONG_OPS_TOKENS_MESSAGE =
  'Too many wrong operator tokens from this address; retry after Retry-After seconds.';

/**
 * Who an operations API request comes from (the `operator` principal). Today the deployment's one
 * shared OPS_TOKEN; a kind of operator credential added later (a named operator's own token, with
 * its scopes) adds its members here and its `OperatorCredentials`.
 */
export interface OperatorIdentity {
  /** The credential presented: the shared OPS_TOKEN. */
  credential: 'ops_token';
}

/** Tells which operator a presented bearer token stands for, if any: one per kind of credential. */
export interface OperatorCredentials {
  identify(token: string): Promise<OperatorIdentity | null>;
}

/** The operations API's door: the credentials it accepts, behind a count of wrong ones per address. */
export interface OperatorAccess {
  /**
   * The operator of a request's `Authorization` header. Rejects with `unauthorized` (no token, a
   * wrong one), or `rate_limited` with `retryAfterSeconds` (too many wrong tokens from `address`).
   */
  authenticate(authorization: string | undefined, address: string): Promise<OperatorIdentity>;
  close(): Promise<void>;
}

const SHARED_TOKEN: OperatorIdentity = Object.freeze({ credential: 'ops_token' });

/** The deployment's OPS_TOKEN, compared in constant time (its digest: equal lengths whatever is sent). */
export function sharedOpsToken(opsToken: string): OperatorCredentials {
  // loadConfig refuses it already; this holds for a configuration built another way too.
  if (opsToken.length < OPS_TOKEN_MIN_LENGTH)
    throw new Error(`OPS_TOKEN must be at least ${OPS_TOKEN_MIN_LENGTH} characters`);
  const expected = createHash('sha256').update(opsToken).digest();
  return {
    async identify(token) {
      const presented = createHash('sha256').update(token).digest();
      return timingSafeEqual(presented, expected) ? SHARED_TOKEN : null;
    },
  };
}

export function operatorAccess(
  credentials: OperatorCredentials,
  failures: FailedAttemptLimit,
): OperatorAccess {
  return {
    async authenticate(authorization, address) {
      const presented = bearerToken(authorization);
      // No credential at all is a client not configured yet, not a guess: it is not counted.
      if (presented === null) throw new AppError('unauthorized', OPS_UNAUTHORIZED_MESSAGE);
      const blocked = failures.refusal(address);
      if (blocked) throw blocked;
      const operator = presented === '' ? null : await credentials.identify(presented);
      if (operator) return operator;
      throw (await failures.failed(address)) ?? new AppError('unauthorized', OPS_UNAUTHORIZED_MESSAGE);
    },
    close: () => failures.close(),
  };
}

/** The access of a deployment with an OPS_TOKEN: wrong tokens counted in `limiter` (memory or Redis). */
export function opsTokenAccess(opsToken: string, limiter: RateLimiter): OperatorAccess {
  return operatorAccess(
    sharedOpsToken(opsToken),
    failedAttemptLimit(limiter, {
      bucket: 'wrong-ops-token',
      message: WRONG_OPS_TOKENS_MESSAGE,
    }),
  );
}
