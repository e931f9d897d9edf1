import { defineConnector } from '../connector.ts';
import { shopifyAccountRoutes } from './account/routes.ts';
import { shopifyConnectCard } from './account/views.ts';
import { SHOPIFY_PROCESS_WEBHOOK_SPEC, SHOPIFY_SYNC_ORDER_SPEC } from './jobs/names.ts';
import { SHOPIFY_PROCESS_WEBHOOK } from './jobs/process-webhook.ts';
import { SHOPIFY_SYNC_ORDER } from './jobs/sync-order.ts';
import { SHOPIFY_PREFIX, shopifyRoutes } from './receivers.ts';
import { type ShopifyConnector, shopifyConnector } from './shopify-connector.ts';
import { SHOPIFY_QUEUE_PREFIX } from './tracking-sync.ts';
import { SHOPIFY_WORDING } from './wording.ts';

/** Shopify: an app of ours (SHOPIFY_API_KEY, SHOPIFY_API_SECRET) installed by each shop; off without it. */
export const SHOPIFY = defineConnector({
  platform: 'shopify',
  label: 'Shopify',
  isOn: (config) => config.shopify !== null,
  wording: SHOPIFY_WORDING,
  account: { cardOrder: 1, connectCard: shopifyConnectCard, polled: false, routes: shopifyAccountRoutes },
  offNotice: 'off (set SHOPIFY_API_KEY, SHOPIFY_API_SECRET)',
  create: (ctx): ShopifyConnector | null =>
    ctx.config.shopify
      ? shopifyConnector({
          app: ctx.config.shopify,
          stores: ctx.stores,
          transact: ctx.transact,
          orders: ctx.orders,
          rates: ctx.rates,
          connections: ctx.connections,
          directory: ctx.directory,
          cipher: ctx.cipher,
          // The admin origins are shops' myshopify.com names, guarded like other shops (a fake
          // Shopify on loopback needs CONNECTORS_ALLOW_INSECURE).
          request: ctx.requester('Shopify must be reachable at a public address'),
          clock: ctx.clock,
          baseUrl: ctx.baseUrl,
          processJob: SHOPIFY_PROCESS_WEBHOOK_SPEC.name,
        })
      : null,
  receivers: { prefix: SHOPIFY_PREFIX, routes: (shopify) => shopifyRoutes(shopify) },
  // Shopify hears of a delivery order at its pickup, its first status change that ships it.
  syncBack: {
    events: ['order.status_changed'],
    job: SHOPIFY_SYNC_ORDER_SPEC.name,
    queuePrefix: SHOPIFY_QUEUE_PREFIX,
  },
  unlink: (shopify) => async (connection, token) => {
    // Without the app's configuration the shop cannot be called: its registrations stay.
    if (!shopify) throw new Error('the Shopify connector is not configured');
    const failures = await shopify.operations.unregister(connection.shop, token, connection.remoteIds);
    if (failures.length) throw new Error(failures.join('; '));
  },
  jobs: [SHOPIFY_PROCESS_WEBHOOK, SHOPIFY_SYNC_ORDER],
});
