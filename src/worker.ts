import { Logger, type Runner, run, type TaskList } from 'graphile-worker';
import type { Deps } from './deps.ts';
import { CLEANUP_IDEMPOTENCY_KEYS, cleanupIdempotencyKeysTask } from './jobs/cleanup-idempotency-keys.ts';
import { ISSUE_DUE_INVOICES, issueDueInvoicesTask } from './jobs/issue-invoices.ts';
import { WEBHOOKS_DELIVER, webhooksDeliverTask } from './jobs/webhooks-deliver.ts';
import { WEBHOOKS_FAN_OUT, webhooksFanOutTask } from './jobs/webhooks-fan-out.ts';
import { WEBHOOKS_RECOVER, webhooksRecoverTask } from './jobs/webhooks-recover.ts';

/** Every job the service runs, by identifier. A job whose task is unknown waits in the queue. */
export function taskList(deps: Deps): TaskList {
  return {
    [CLEANUP_IDEMPOTENCY_KEYS]: cleanupIdempotencyKeysTask(deps),
    [ISSUE_DUE_INVOICES]: issueDueInvoicesTask(deps),
    [WEBHOOKS_FAN_OUT]: webhooksFanOutTask(deps),
    [WEBHOOKS_DELIVER]: webhooksDeliverTask(deps),
    [WEBHOOKS_RECOVER]: webhooksRecoverTask(deps),
  };
}

// Recurring jobs; graphile-worker's cron keeps them at-most-once per slot across all workers.
const CRONTAB = [
  `0 * * * * ${CLEANUP_IDEMPOTENCY_KEYS} ?max=3`,
  `* * * * * ${WEBHOOKS_RECOVER} ?max=1`,
  `5 * * * * ${ISSUE_DUE_INVOICES} ?max=5`,
].join('\n');

export interface WorkerOptions {
  concurrency?: number;
  pollIntervalMs?: number;
  log?: (level: string, message: string) => void;
}

/**
 * Starts the job runner on the service's database: jobs are claimed with row locks, so any number
 * of workers (inside API processes or alone with `dlv worker`) share the queue safely.
 */
export function startWorker(deps: Deps, options: WorkerOptions = {}): Promise<Runner> {
  const log = options.log ?? (() => {});
  return run({
    pgPool: deps.pool,
    taskList: taskList(deps),
    crontab: CRONTAB,
    concurrency: options.concurrency ?? 4,
    pollInterval: options.pollIntervalMs ?? 1000,
    noHandleSignals: true,
    logger: new Logger(() => (level, message) => log(level, message)),
  });
}
