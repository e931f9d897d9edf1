import type { Task } from 'graphile-worker';
import { idempotencyRepository } from '../db/repositories/idempotency-repository.ts';
import type { Deps } from '../deps.ts';

export const CLEANUP_IDEMPOTENCY_KEYS = 'idempotency_cleanup';

/** Hourly: Idempotency-Keys are honoured 24 h; older rows are only dead weight. */
export function cleanupIdempotencyKeysTask(deps: Deps): Task {
  return async (_payload, helpers) => {
    const deleted = await idempotencyRepository(deps.pool).deleteExpired();
    if (deleted > 0) helpers.logger.info(`deleted ${deleted} expired idempotency keys`);
  };
}
