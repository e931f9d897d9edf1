import { inboxJob } from '../../connector-jobs.ts';
import type { PrestaShopConnector } from '../prestashop-connector.ts';
import { PRESTASHOP_PROCESS_PUSH_SPEC } from './names.ts';

/** What this job uses. */
type Context = { prestashop: Pick<PrestaShopConnector, 'inbox'> };

/** One push of the PrestaShop module: an order to create or cancel. */
export const PRESTASHOP_PROCESS_PUSH = inboxJob(
  PRESTASHOP_PROCESS_PUSH_SPEC,
  'prestashop push',
  (deps: Context) => deps.prestashop.inbox,
  'the PrestaShop connector is off',
);
