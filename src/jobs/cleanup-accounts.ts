import { defineJob } from './job.ts';

/**
 * Hourly: sessions idle for 12 h or 7 days old, and one-time tokens expired or used, are refused
 * anyway; drop them.
 */
export const CLEANUP_ACCOUNTS = defineJob({
  name: 'account_cleanup',
  payloadVersion: 1,
  fields: [],
  schedule: '30 * * * * ?max=3',
  async run(deps, _payload, helpers) {
    const deleted = await deps.accounts.deleteExpired();
    if (deleted.sessions + deleted.tokens > 0) {
      helpers.logger.info(
        `deleted ${deleted.sessions} expired sessions and ${deleted.tokens} dead account tokens`,
      );
    }
  },
});
