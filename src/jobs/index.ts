import { CONNECTOR_JOBS } from '../connectors/registry.ts';
import type { Deps } from '../deps.ts';
import { ACCOUNT_RESET_MAIL } from './account-reset-mail.ts';
import { ANONYMISE_RECIPIENT_DATA } from './anonymise-recipient-data.ts';
import { AUDIT_PARTITIONS } from './audit-partitions.ts';
import { CHECK_ADDRESSES } from './check-addresses.ts';
import { CLEANUP_ACCOUNTS } from './cleanup-accounts.ts';
import { CLEANUP_IDEMPOTENCY_KEYS } from './cleanup-idempotency-keys.ts';
import { CLEANUP_ORDER_QUEUES } from './cleanup-order-queues.ts';
import { EINVOICE_REPORT_PAYMENT } from './einvoice-report-payment.ts';
import { EINVOICE_SUBMIT } from './einvoice-submit.ts';
import { EINVOICES_SYNC } from './einvoices-sync.ts';
import { ERASE_PROOF_FILES } from './erase-proof-files.ts';
import { ISSUE_DUE_INVOICES } from './issue-invoices.ts';
import { type Job, type JobHelpers, readPayload } from './job.ts';
import { NOTIFY_RECIPIENT } from './notify-recipient.ts';
import { PLAY_TEST_SCENARIO } from './play-test-scenario.ts';
import { PURGE_COURIER_POSITIONS } from './purge-courier-positions.ts';
import { PURGE_MESSAGE_LOGS } from './purge-message-logs.ts';
import { RECOVER_STALLED_JOBS } from './recover-stalled-jobs.ts';
import { REFRESH_ORDER_JSON } from './refresh-order-json.ts';
import { ROUNDS_DRIVEN_DISTANCE } from './rounds-driven-distance.ts';
import { WEBHOOKS_DELIVER } from './webhooks-deliver.ts';
import { WEBHOOKS_FAN_OUT } from './webhooks-fan-out.ts';
import { WEBHOOKS_RECOVER } from './webhooks-recover.ts';

/**
 * Every job the service runs, each run with the composition root as its context (its type checks
 * that `Deps` has what each job declares it uses). A job whose name no worker knows waits in the queue.
 */
// biome-ignore lint/suspicious/noExplicitAny: each job has its own payload fields
export const JOBS: readonly Job<any, Deps>[] = [
  CLEANUP_IDEMPOTENCY_KEYS,
  CLEANUP_ACCOUNTS,
  ISSUE_DUE_INVOICES,
  WEBHOOKS_FAN_OUT,
  NOTIFY_RECIPIENT,
  WEBHOOKS_DELIVER,
  WEBHOOKS_RECOVER,
  CLEANUP_ORDER_QUEUES,
  ERASE_PROOF_FILES,
  PURGE_MESSAGE_LOGS,
  ANONYMISE_RECIPIENT_DATA,
  EINVOICE_SUBMIT,
  EINVOICE_REPORT_PAYMENT,
  PLAY_TEST_SCENARIO,
  EINVOICES_SYNC,
  ROUNDS_DRIVEN_DISTANCE,
  CHECK_ADDRESSES,
  PURGE_COURIER_POSITIONS,
  AUDIT_PARTITIONS,
  // Each shop platform's own (src/connectors/<platform>/jobs/).
  ...CONNECTOR_JOBS,
  RECOVER_STALLED_JOBS,
  REFRESH_ORDER_JSON,
  ACCOUNT_RESET_MAIL,
];

/** The runner's task list: each job by name, its payload checked before it runs. */
export function taskList(
  deps: Deps,
): Record<string, (payload: unknown, helpers: JobHelpers) => Promise<void>> {
  return Object.fromEntries(
    JOBS.map((job) => [job.name, (payload, helpers) => job.run(deps, readPayload(job, payload), helpers)]),
  );
}

/** The recurring jobs; graphile-worker's cron keeps them at-most-once per slot across all workers. */
export const CRONTAB = JOBS.filter((job) => job.schedule)
  .map((job) => {
    const [minute, hour, day, month, weekday, ...options] = job.schedule!.split(' ');
    return [minute, hour, day, month, weekday, job.name, ...options].join(' ');
  })
  .join('\n');
