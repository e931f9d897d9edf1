import { inboxJob } from '../../connector-jobs.ts';
import type { WooCommerceConnector } from '../woocommerce-connector.ts';
import { WOOCOMMERCE_PROCESS_ORDER_SPEC } from './names.ts';

/** What this job uses. */
type Context = { woocommerce: Pick<WooCommerceConnector, 'orderSync'> | null };

/**
 * One WooCommerce order state stored by the receiver or the poll. Processing reads the products
 * from the shop: the shop unreachable makes it retry with the queue's backoff, and the brand sees
 * it once it gives up.
 */
export const WOOCOMMERCE_PROCESS_ORDER = inboxJob(
  WOOCOMMERCE_PROCESS_ORDER_SPEC,
  'woocommerce order',
  (deps: Context) => deps.woocommerce?.orderSync ?? null,
  'the WooCommerce bridge is off (CONNECTOR_SECRET_KEY)',
);
