import { defineJob } from './job.ts';
import { CLEANUP_IDEMPOTENCY_KEYS_SPEC } from './job-names.ts';

/** Hourly: Idempotency-Keys are honoured 24 h; older rows are only dead weight. */
export const CLEANUP_IDEMPOTENCY_KEYS = defineJob({
  ...CLEANUP_IDEMPOTENCY_KEYS_SPEC,
  schedule: '0 * * * * ?max=3',
  async run(deps: { idempotentRequests: { deleteExpired(): Promise<number> } }, _payload, helpers) {
    const deleted = await deps.idempotentRequests.deleteExpired();
    if (deleted > 0) helpers.logger.info(`deleted ${deleted} expired idempotency keys`);
  },
});
