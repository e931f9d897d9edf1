import { defineJob, type Job, STALLED_JOB_GRACE_MS } from './job.ts';

/**
 * One push of the PrestaShop module (stored by the receiver, which enqueued this in the same
 * statement): an order to create or cancel. An order we cannot take becomes a sync problem, not a
 * failure; only the database failing makes it retry.
 */
export const PRESTASHOP_PROCESS_PUSH: Job<'inbox_id'> = defineJob({
  name: 'prestashop_process_push',
  payloadVersion: 1,
  fields: ['inbox_id'],
  maxAttempts: 10,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { inbox_id }, helpers) {
    if (!/^\d+$/.test(inbox_id)) throw new Error(`prestashop_process_push: bad inbox_id ${inbox_id}`);
    const outcome = await deps.prestashop.inbox.process(Number(inbox_id));
    helpers.logger.debug(`prestashop push ${inbox_id}: ${outcome}`);
  },
});
