import { type Pool, type Queryable, withTransaction } from '../../db/pool.ts';
import { idempotencyRepository } from '../../db/repositories/idempotency-repository.ts';
import { AppError } from '../../errors.ts';

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
 * Runs `run` at most once per (brand, Idempotency-Key) within 24 h (SPEC §5). With a key, the work
 * and its stored response commit in one transaction under a non-blocking advisory lock:
 * a concurrent request with the same key gets 409, a later one the stored response (or 422 when
 * its body differs). A failure stores nothing, so the key can be used again.
 */
export async function runIdempotently(
  pool: Pool,
  scope: IdempotencyScope,
  run: (db: Queryable) => Promise<Outcome>,
): Promise<Outcome & { replayed: boolean }> {
  const { key } = scope;
  if (key === null) return { ...(await run(pool)), replayed: false };
  return withTransaction(pool, async (client) => {
    const repo = idempotencyRepository(client);
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
    const outcome = await run(client);
    await repo.save(scope.brandId, key, { requestHash: scope.fingerprint, ...outcome });
    return { ...outcome, replayed: false };
  });
}
