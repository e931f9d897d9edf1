import { defineJob } from './job.ts';

/**
 * Hourly: orders whose stored JSON was rendered before a member of the order's JSON changed are
 * rendered from their columns on every read; this stores their new text once (a deploy that
 * changes the JSON pays this pass once, then every later run finds nothing).
 */
export const REFRESH_ORDER_JSON = defineJob({
  name: 'refresh_order_json',
  payloadVersion: 1,
  fields: [],
  schedule: '23 * * * * ?max=1',
  async run(deps, _payload, helpers) {
    const refreshed = await deps.orders.refreshStoredJson();
    if (refreshed > 0) helpers.logger.info(`stored the JSON of ${refreshed} orders`);
  },
});
