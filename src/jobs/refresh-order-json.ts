import type { OrderService } from '../domain/orders/order-service.ts';
import { defineJob } from './job.ts';
import { REFRESH_ORDER_JSON_SPEC } from './job-names.ts';

/**
 * Hourly: orders whose stored JSON was rendered before a member of the order's JSON changed are
 * rendered from their columns on every read; this stores their new text once (a deploy that
 * changes the JSON pays this pass once, then every later run finds nothing).
 */
export const REFRESH_ORDER_JSON = defineJob({
  ...REFRESH_ORDER_JSON_SPEC,
  schedule: '23 * * * * ?max=1',
  async run(deps: { orders: Pick<OrderService, 'refreshStoredJson'> }, _payload, helpers) {
    const refreshed = await deps.orders.refreshStoredJson();
    if (refreshed > 0) helpers.logger.info(`stored the JSON of ${refreshed} orders`);
  },
});
