import type { MessageLogRetention } from '../domain/privacy/message-log-retention.ts';
import { defineJob } from './job.ts';
import { PURGE_MESSAGE_LOGS_SPEC } from './job-names.ts';

/**
 * Hourly: the per-message logs older than MESSAGE_LOG_RETENTION_DAYS (webhook events with their
 * deliveries and attempts, notifications, shops' webhooks, answered webhook requests) are deleted
 * in small batches (docs/operations.md, "Retention"). Hourly rather than daily, so that each run
 * deletes an hour's worth; a run past its time budget leaves the rest to the next.
 */
export const PURGE_MESSAGE_LOGS = defineJob({
  ...PURGE_MESSAGE_LOGS_SPEC,
  schedule: '15 * * * * ?max=3',
  async run(deps: { messageLogs: Pick<MessageLogRetention, 'purgeExpired'> }, _payload, helpers) {
    const purged = await deps.messageLogs.purgeExpired();
    const { finished, ...counts } = purged;
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    if (total > 0) {
      const parts = Object.entries(counts)
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `${n} ${name}`);
      helpers.logger.info(
        `deleted ${parts.join(', ')} past their retention${finished ? '' : ' (more next run)'}`,
      );
    }
  },
});
