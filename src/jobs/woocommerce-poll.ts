import { defineJob, type Job, STALLED_JOB_GRACE_MS } from './job.ts';

/**
 * Every five minutes, one poll job per active WooCommerce link (keyed by the link: a poll still
 * queued is not queued twice), so a slow or unreachable shop holds up no other.
 */
export const WOOCOMMERCE_POLL: Job<never> = defineJob({
  name: 'woocommerce_poll',
  payloadVersion: 1,
  fields: [],
  schedule: '*/5 * * * *',
  async run(deps, _payload, helpers) {
    if (!deps.woocommerce) return;
    for (const connection of await deps.woocommerce.activeLinks()) {
      await helpers.addJob(
        WOOCOMMERCE_POLL_SHOP.name,
        { v: 1, connection_id: connection.id },
        { jobKey: `woocommerce_poll_shop:${connection.id}`, maxAttempts: 1 },
      );
    }
  },
});

/**
 * One link's poll (src/connectors/woocommerce/poll.ts). Not retried: the next one is five minutes
 * away, and what failed is in the link's health (`dlv connectors show`).
 */
export const WOOCOMMERCE_POLL_SHOP: Job<'connection_id'> = defineJob({
  name: 'woocommerce_poll_shop',
  payloadVersion: 1,
  fields: ['connection_id'],
  maxAttempts: 1,
  stalledAfterMs: STALLED_JOB_GRACE_MS,
  async run(deps, { connection_id }, helpers) {
    if (!deps.woocommerce) return;
    try {
      const summary = await deps.woocommerce.poll.poll(connection_id);
      helpers.logger.debug(`woocommerce poll ${connection_id}: ${summary.stored}/${summary.seen} new`);
    } catch (err) {
      // Recorded in the link's health by the poll; the link may also have been disconnected since.
      helpers.logger.info(`woocommerce poll ${connection_id}: ${(err as Error).message}`);
    }
  },
});
