import { eventSyncJob } from '../../connector-jobs.ts';
import type { PrestaShopConnector } from '../prestashop-connector.ts';
import { PRESTASHOP_SYNC_ORDER_SPEC } from './names.ts';

/** What this job uses. */
type Context = { prestashop: Pick<PrestaShopConnector, 'statuses'> };

/**
 * The PrestaShop subscriber's job for one outbox event: our tracking number into the shop's
 * order_carriers on creation, its "delivered" state on delivery; the link notes the shop being
 * down meanwhile.
 */
export const PRESTASHOP_SYNC_ORDER = eventSyncJob(
  PRESTASHOP_SYNC_ORDER_SPEC,
  'prestashop',
  (deps: Context) => deps.prestashop.statuses,
  'the PrestaShop connector is off',
);
