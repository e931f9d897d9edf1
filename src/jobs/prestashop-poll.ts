import { defineJob, type Job, STALLED_JOB_GRACE_MS } from './job.ts';

/** A shop is polled at most this often; the cron runs more often so a shop's turn comes on time. */
export const PRESTASHOP_POLL_EVERY_MS = 4 * 60 * 1000;

/**
 * The safety net for lost pushes: every few minutes, each active PrestaShop link with a Webservice
 * key due for a poll gets its own job (one at a time per shop, by job key), so a slow or unreachable
 * shop neither delays the others nor is polled twice at once.
 */
export const PRESTASHOP_POLL: Job = defineJob({
  name: 'prestashop_poll',
  payloadVersion: 1,
  fields: [],
  schedule: '*/5 * * * * ?max=1',
  async run(deps, _payload, helpers) {
    for (const connectionId of await deps.prestashop.poll.due(PRESTASHOP_POLL_EVERY_MS)) {
      await helpers.addJob(
        PRESTASHOP_POLL_SHOP.name,
        { v: 1, connection_id: connectionId },
        { jobKey: `prestashop_poll:${connectionId}`, jobKeyMode: 'preserve_run_at', maxAttempts: 3 },
      );
    }
  },
});

/** One shop's poll: orders updated since its high-water mark. The shop down: retried, then next run. */
export const PRESTASHOP_POLL_SHOP: Job<'connection_id'> = defineJob({
  name: 'prestashop_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 3,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { connection_id }, helpers) {
    const outcome = await deps.prestashop.poll.poll(connection_id);
    helpers.logger.debug(`prestashop poll ${connection_id}: ${outcome}`);
  },
});
