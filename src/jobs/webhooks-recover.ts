import type { Task } from 'graphile-worker';
import { webhookDeliveriesRepository } from '../db/repositories/webhook-deliveries-repository.ts';
import type { Deps } from '../deps.ts';

export const WEBHOOKS_RECOVER = 'webhooks_recover';

/** Well past the 15 s send timeout: a live worker has settled or locked its delivery by then. */
export const ORPHAN_GRACE_MS = 2 * 60 * 1000;

/**
 * Every minute: a worker killed mid-send leaves its job locked (graphile-worker frees such jobs
 * only after 4 hours) while its delivery row lock died with its connection. Such deliveries are
 * enqueued again, so a crash delays a webhook by about a minute instead of hours.
 */
export function webhooksRecoverTask(deps: Deps): Task {
  return async (_payload, helpers) => {
    const requeued = await webhookDeliveriesRepository(deps.pool).requeueOrphans(
      deps.clock(),
      ORPHAN_GRACE_MS,
    );
    if (requeued.length > 0)
      helpers.logger.info(`re-enqueued ${requeued.length} orphaned webhook deliveries`);
  };
}
