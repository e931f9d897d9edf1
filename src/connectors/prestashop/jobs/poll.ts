import { defineJob, type Job } from '../../../jobs/job.ts';
import type { PrestaShopConnector } from '../prestashop-connector.ts';
import { PRESTASHOP_POLL_SHOP_SPEC, PRESTASHOP_POLL_SPEC } from './names.ts';

/** What the polls use. */
type Context = { prestashop: Pick<PrestaShopConnector, 'poll'> };

/** A shop is polled at most this often; the cron runs more often so a shop's turn comes on time. */
const PRESTASHOP_POLL_EVERY_MS = 4 * 60 * 1000;

/**
 * The safety net for lost pushes: every few minutes, each active PrestaShop link with a Webservice
 * key due for a poll gets its own job (one at a time per shop, by job key), so a slow or unreachable
 * shop neither delays the others nor is polled twice at once.
 */
export const PRESTASHOP_POLL: Job<never, Context> = defineJob({
  ...PRESTASHOP_POLL_SPEC,
  schedule: '*/5 * * * * ?max=1',
  async run(deps: Context, _payload, helpers) {
    for (const connectionId of await deps.prestashop.poll.due(PRESTASHOP_POLL_EVERY_MS)) {
      await helpers.addJob(
        PRESTASHOP_POLL_SHOP_SPEC.name,
        { v: PRESTASHOP_POLL_SHOP_SPEC.payloadVersion, connection_id: connectionId },
        {
          jobKey: `prestashop_poll:${connectionId}`,
          jobKeyMode: 'preserve_run_at',
          maxAttempts: PRESTASHOP_POLL_SHOP_SPEC.maxAttempts,
        },
      );
    }
  },
});

/** One shop's poll: orders updated since its high-water mark. The shop down: retried, then next run. */
export const PRESTASHOP_POLL_SHOP = defineJob({
  ...PRESTASHOP_POLL_SHOP_SPEC,
  async run(deps: Context, { connection_id }, helpers) {
    const outcome = await deps.prestashop.poll.poll(connection_id);
    helpers.logger.debug(`prestashop poll ${connection_id}: ${outcome}`);
  },
});
