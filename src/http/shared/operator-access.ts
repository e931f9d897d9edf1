import { createHash, timingSafeEqual } from 'node:crypto';
import { OPS_TOKEN_MIN_LENGTH } from '../../config.ts';
import type { ActiveOperatorSession, OperatorSessions } from '../../domain/operators/operator-sessions.ts';
import type { OpsTokenService } from '../../domain/operators/ops-token-service.ts';
import type { OperatorRole, OpsScope } from '../../domain/operators/scopes.ts';
import { AppError } from '../../errors.ts';
import type { BucketPolicy, RateLimiter } from '../../infra/rate-limit/token-bucket.ts';
import { bearerToken } from './bearer.ts';
import { type FailedAttemptLimit, failedAttemptLimit } from './failed-attempt-limit.ts';

/**
 * Wrong operator credentials per client address: 10 at once, then one every 10 seconds. A right one
 * is never counted; past the limit the address is refused everything, the right one included, until
 * its Retry-After (else the 429s would leave the guesses' answers readable).
 */
export const WRONG_OPS_TOKEN_POLICY: BucketPolicy = { perSecond: 0.1, burst: 10 };

export const OPS_UNAUTHORIZED_MESSAGE =
  'The operations API needs "Authorization: Bearer <token>": a machine token (dlv_ops_…), an operator\'s session (POST /ops/v1/sessions), or the bootstrap OPS_TOKEN.';
export const WRONG_OPS_TOKENS_MESSAGE =
  'Too many wrong operator credentials from this address; retry after Retry-After seconds.';

/**
 * Who an operations API request comes from (the `operator` principal): a signed-in person, a
 * machine token, or the deployment's bootstrap OPS_TOKEN. Each carries what the audit trail's
 * actor needs (an operator's id, e-mail and role; a token's id and name).
 */
export type OperatorIdentity =
  | {
      /** The shared OPS_TOKEN: every scope, for creating the first people and tokens. */
      credential: 'ops_token';
    }
  | {
      credential: 'session';
      operator: { id: string; email: string; name: string; role: OperatorRole };
      /** The session itself; a setup one (`setup` not null: password to choose, factor to enrol) may do nothing else. */
      session: ActiveOperatorSession;
    }
  | {
      credential: 'token';
      token: { id: string; name: string; prefix: string; scopes: readonly OpsScope[] };
    };

/** Tells which operator a presented bearer token stands for, if any. */
export interface OperatorCredentials {
  identify(token: string): Promise<OperatorIdentity | null>;
}

/** The operations API's door: the credentials it accepts, behind a count of wrong ones per address. */
export interface OperatorAccess {
  /**
   * The operator of a request's `Authorization` header. Rejects with `unauthorized` (none, a wrong,
   * revoked or expired one), or `rate_limited` with `retryAfterSeconds` (too many wrong ones from `address`).
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

/** Machine tokens (`dlv_ops_…`): their scopes, refused once revoked or expired. */
function machineTokens(tokens: Pick<OpsTokenService, 'authenticate'>): OperatorCredentials {
  return {
    async identify(token) {
      const found = await tokens.authenticate(token);
      return found
        ? {
            credential: 'token',
            token: { id: found.id, name: found.name, prefix: found.prefix, scopes: found.scopes },
          }
        : null;
    },
  };
}

/** Operators' sessions of the operations API (`dlv_sess_…`, POST /ops/v1/sessions). */
function operatorApiSessions(sessions: Pick<OperatorSessions, 'resume'>): OperatorCredentials {
  return {
    async identify(token) {
      const session = await sessions.resume(token, 'api');
      if (!session) return null;
      const { id, email, name, role } = session.operator;
      return {
        credential: 'session',
        operator: { id, email, name, role },
        session,
      };
    },
  };
}

/** Asks each kind of credential in turn: the first that knows the token says who it is. */
function anyOf(...kinds: OperatorCredentials[]): OperatorCredentials {
  return {
    async identify(token) {
      for (const kind of kinds) {
        const found = await kind.identify(token);
        if (found) return found;
      }
      return null;
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

/**
 * The operations API's access: the bootstrap OPS_TOKEN when the deployment sets one, machine tokens
 * and operators' sessions; wrong credentials counted in `limiter` (memory or Redis).
 */
export function opsAccess(
  opsToken: string | null,
  others: { tokens: Pick<OpsTokenService, 'authenticate'>; sessions: Pick<OperatorSessions, 'resume'> },
  limiter: RateLimiter,
): OperatorAccess {
  // The bootstrap token first: a deployment's OPS_TOKEN may have any shape, a token's or a session's too.
  const kinds = [machineTokens(others.tokens), operatorApiSessions(others.sessions)];
  return operatorAccess(
    anyOf(...(opsToken === null ? [] : [sharedOpsToken(opsToken)]), ...kinds),
    failedAttemptLimit(limiter, { bucket: 'wrong-ops-token', message: WRONG_OPS_TOKENS_MESSAGE }),
  );
}
