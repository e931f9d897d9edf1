import type { Stores, Transact } from '../../db/stores.ts';
import { AppError } from '../../errors.ts';

/** A response as first sent: replayed byte-for-byte-equivalent to a retry with the same key. */
export interface Outcome {
  statusCode: number;
  body: unknown;
}

export interface IdempotencyScope {
  brandId: string;
  key: string | null;
  fingerprint: Buffer;
}

/**
 * Idempotency-Key handling for the public API (SPEC §5): `run` happens at most once per (brand,
 * key) within 24 h. With a key, the work and its stored response commit in one transaction under a
 * non-blocking advisory lock: a concurrent request with the same key gets 409, a later one the
 * stored response (or 422 when its body differs). A failure stores nothing, so the key can be used
 * again. Storing responses is the HTTP surface's business; the work itself is a service call given
 * the transaction's stores.
 */
export function idempotentRequests(deps: { stores: Pick<Stores, 'idempotencyKeys'>; transact: Transact }) {
  return {
    async run(
      scope: IdempotencyScope,
      work: (stores: Stores | null) => Promise<Outcome>,
    ): Promise<Outcome & { replayed: boolean }> {
      const { key } = scope;
      if (key === null) return { ...(await work(null)), replayed: false };
      return deps.transact(async (tx) => {
        const repo = tx.idempotencyKeys;
        if (!(await repo.tryLock(scope.brandId, key))) {
          throw new AppError(
            'idempotency_conflict',
            'A request with this Idempotency-Key is still being processed; retry shortly.',
          );
        }
        const stored = await repo.find(scope.brandId, key);
        if (stored) {
          if (!stored.requestHash.equals(scope.fingerprint)) {
            throw new AppError(
              'idempotency_key_reused',
              'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
            );
          }
          return { statusCode: stored.statusCode, body: stored.body, replayed: true };
        }
        const outcome = await work(tx);
        await repo.save(scope.brandId, key, { requestHash: scope.fingerprint, ...outcome });
        return { ...outcome, replayed: false };
      });
    },

    /** Keys older than 24 h: the hourly cleanup job. */
    deleteExpired: () => deps.stores.idempotencyKeys.deleteExpired(),
  };
}

export type IdempotentRequests = ReturnType<typeof idempotentRequests>;
