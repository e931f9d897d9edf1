import { eventSyncJob } from '../../connector-jobs.ts';
import type { WooCommerceConnector } from '../woocommerce-connector.ts';
import { WOOCOMMERCE_SYNC_ORDER_SPEC } from './names.ts';

/** What this job uses. */
type Context = { woocommerce: Pick<WooCommerceConnector, 'status'> | null };

/**
 * The WooCommerce subscriber's job for one outbox event: the delivery status written back to the
 * shop order (notes, `completed`, a Shipment Tracking entry). A second attempt may follow one that
 * wrote the note and died before finishing (`rerun`).
 */
export const WOOCOMMERCE_SYNC_ORDER = eventSyncJob(
  WOOCOMMERCE_SYNC_ORDER_SPEC,
  'woocommerce',
  (deps: Context) => deps.woocommerce?.status ?? null,
  'the WooCommerce bridge is off (CONNECTOR_SECRET_KEY)',
);
