import type { MessageLogRetention } from '../domain/privacy/message-log-retention.ts';
import { defineJob } from './job.ts';
import { PURGE_MESSAGE_LOGS_SPEC } from './job-names.ts';

/**
 * Hourly: the per-message logs older than MESSAGE_LOG_RETENTION_DAYS (webhook events with their
 * deliveries and attempts, notifications, shops' webhooks and problems, answered webhook requests)
 * are deleted in small paced batches (docs/operations.md, "Retention"). Hourly rather than daily,
 * so that each run deletes an hour's worth. A run that reached its time budget with rows still due
 * (a backlog: the first runs on a database that kept everything) is continued a second later by
 * one more job under a key, not at the next hour: a year of logs drains in days, not months.
 */
export const PURGE_MESSAGE_LOGS = defineJob({
  ...PURGE_MESSAGE_LOGS_SPEC,
  schedule: '15 * * * * ?max=3',
  async run(deps: { messageLogs: Pick<MessageLogRetention, 'purgeExpired'> }, _payload, helpers) {
    const { finished, ...counts } = await deps.messageLogs.purgeExpired();
    const parts = Object.entries(counts)
      .filter(([, n]) => n > 0)
      .map(([name, n]) => `${n} ${name}`);
    if (parts.length > 0)
      helpers.logger.info(`deleted ${parts.join(', ')} past their retention${finished ? '' : '; going on'}`);
    if (!finished) {
      await helpers.addJob(
        PURGE_MESSAGE_LOGS_SPEC.name,
        { v: PURGE_MESSAGE_LOGS_SPEC.payloadVersion },
        { jobKey: `${PURGE_MESSAGE_LOGS_SPEC.name}:more`, runAt: new Date(Date.now() + 1000) },
      );
    }
  },
});
