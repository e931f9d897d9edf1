import { AppError } from '../../errors.ts';
import { defineConnector } from '../connector.ts';
import { wooCommerceAccountRoutes } from './account/routes.ts';
import { wooConnectCard } from './account/views.ts';
import { WOOCOMMERCE_PROCESS_ORDER_SPEC, WOOCOMMERCE_SYNC_ORDER_SPEC } from './jobs/names.ts';
import { WOOCOMMERCE_POLL, WOOCOMMERCE_POLL_SHOP } from './jobs/poll.ts';
import { WOOCOMMERCE_PROCESS_ORDER } from './jobs/process-order.ts';
import { WOOCOMMERCE_SYNC_ORDER } from './jobs/sync-order.ts';
import { WOOCOMMERCE_PREFIX, wooCommerceRoutes } from './receivers.ts';
import { type WooCommerceConnector, wooCommerceConnector } from './woocommerce-connector.ts';
import { WOOCOMMERCE_WORDING } from './wording.ts';

/** WooCommerce: each shop gives its own key pair; off when published without CONNECTOR_SECRET_KEY. */
export const WOOCOMMERCE = defineConnector({
  platform: 'woocommerce',
  label: 'WooCommerce',
  isOn: (config) => config.woocommerce,
  wording: WOOCOMMERCE_WORDING,
  account: { cardOrder: 3, connectCard: wooConnectCard, polled: true, routes: wooCommerceAccountRoutes },
  offNotice: 'off (set CONNECTOR_SECRET_KEY)',
  create: (ctx): WooCommerceConnector | null =>
    ctx.config.woocommerce
      ? wooCommerceConnector({
          stores: ctx.stores,
          transact: ctx.transact,
          orders: ctx.orders,
          connections: ctx.connections,
          directory: ctx.directory,
          cipher: ctx.cipher,
          guard: ctx.shopGuard,
          request: ctx.shopRequest,
          clock: ctx.clock,
          baseUrl: ctx.baseUrl,
          carrierName: ctx.config.carrierName,
          processJob: WOOCOMMERCE_PROCESS_ORDER_SPEC.name,
        })
      : null,
  receivers: { prefix: WOOCOMMERCE_PREFIX, routes: (woo, ctx) => wooCommerceRoutes(woo, ctx) },
  syncBack: {
    events: ['order.created', 'order.status_changed'],
    job: WOOCOMMERCE_SYNC_ORDER_SPEC.name,
    queuePrefix: 'woocommerce',
  },
  // What a brand may ship besides `processing` (paid): `on-hold` is where bank transfers and cheques
  // wait, `pending` where cash on delivery may. Never `cancelled` or `failed`.
  extraStatuses: ['on-hold', 'pending'],
  unlink: (woocommerce) => async (connection) => {
    await woocommerce?.removeWebhooks(connection);
  },
  // From the link's high-water mark unless told otherwise: WooCommerce never retries webhooks.
  resync: (woocommerce) => async (connection, since) => {
    if (!woocommerce) throw new AppError('invalid_request', 'The WooCommerce bridge is off.');
    const found = await woocommerce.poll.poll(connection.id, { since });
    const outcome = [`${found.seen} orders read, ${found.stored} new to process`, ...found.webhooks].join(
      '; ',
    );
    return { outcome, from: since ?? null, figures: { seen: found.seen, stored: found.stored } };
  },
  jobs: [WOOCOMMERCE_PROCESS_ORDER, WOOCOMMERCE_SYNC_ORDER, WOOCOMMERCE_POLL, WOOCOMMERCE_POLL_SHOP],
});
