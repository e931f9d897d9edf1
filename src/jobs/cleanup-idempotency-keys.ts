import { defineJob } from './job.ts';

/** Hourly: Idempotency-Keys are honoured 24 h; older rows are only dead weight. */
export const CLEANUP_IDEMPOTENCY_KEYS = defineJob({
  name: 'idempotency_cleanup',
  payloadVersion: 1,
  fields: [],
  schedule: '0 * * * * ?max=3',
  async run(deps, _payload, helpers) {
    const deleted = await deps.idempotentRequests.deleteExpired();
    if (deleted > 0) helpers.logger.info(`deleted ${deleted} expired idempotency keys`);
  },
});
