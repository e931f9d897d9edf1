import type { StoredResponse } from '../../db/repositories/idempotency-repository.ts';
import type { Stores, Transact } from '../../db/stores.ts';
import { AppError } from '../../errors.ts';

/** A response as first sent: replayed byte-for-byte-equivalent to a retry with the same key. */
interface Outcome {
  statusCode: number;
  /** The response body: a value, or already JSON text (stored as the JSON it holds). */
  body: unknown;
}

export interface IdempotencyScope {
  brandId: string;
  key: string | null;
  /** What was asked (operation and body); computed only when a key is given. */
  fingerprint: () => Buffer;
}

/**
 * Idempotency-Key handling for the public API (SPEC §5): `run` happens at most once per (brand,
 * key) within 24 h. With a key, the work and its stored response commit in one transaction under a
 * non-blocking advisory lock: a concurrent request with the same key gets 409, a later one the
 * stored response (or 422 when its body differs). A failure stores nothing, so the key can be used
 * again. Storing responses is the HTTP surface's business; the work itself is a service call given
 * the transaction's stores.
 */
/** The stored response again, if the request is the same one (same fingerprint). */
function replay(scope: IdempotencyScope, stored: StoredResponse): Outcome & { replayed: true } {
  if (!stored.requestHash.equals(scope.fingerprint())) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
    );
  }
  return { statusCode: stored.statusCode, body: stored.body, replayed: true };
}

/** `Idempotency-Key` on the public API's writes: one answer per key, replayed for 24 h. */
export interface IdempotentRequests {
  /**
   * `prepare` does the reads (validation, prices) outside any transaction; `work` writes, inside
   * the key's transaction when there is a key. A key already answered is replayed before any of it.
   */
  run<P>(
    scope: IdempotencyScope,
    prepare: () => Promise<P>,
    work: (stores: Stores | null, prepared: P) => Promise<Outcome>,
  ): Promise<Outcome & { replayed: boolean }>;
  /** Keys older than 24 h: the hourly cleanup job. */
  deleteExpired(): Promise<number>;
}

export function idempotentRequests(deps: {
  stores: Pick<Stores, 'idempotencyKeys'>;
  transact: Transact;
}): IdempotentRequests {
  return {
    async run<P>(
      scope: IdempotencyScope,
      prepare: () => Promise<P>,
      work: (stores: Stores | null, prepared: P) => Promise<Outcome>,
    ): Promise<Outcome & { replayed: boolean }> {
      const { key } = scope;
      if (key === null) return { ...(await work(null, await prepare())), replayed: false };
      const answered = await deps.stores.idempotencyKeys.find(scope.brandId, key);
      if (answered) return replay(scope, answered);
      const prepared = await prepare();
      return deps.transact(async (tx) => {
        const repo = tx.idempotencyKeys;
        if (!(await repo.tryLock(scope.brandId, key))) {
          throw new AppError(
            'idempotency_conflict',
            'A request with this Idempotency-Key is still being processed; retry shortly.',
          );
        }
        const stored = await repo.find(scope.brandId, key);
        if (stored) return replay(scope, stored);
        const outcome = await work(tx, prepared);
        await repo.save(scope.brandId, key, { requestHash: scope.fingerprint(), ...outcome });
        return { ...outcome, replayed: false };
      });
    },

    deleteExpired: () => deps.stores.idempotencyKeys.deleteExpired(),
  };
}
