import type { ShopifyAppConfig } from '../../config.ts';
import type { Stores, Transact } from '../../db/stores.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { RateService } from '../../domain/rates/rate-service.ts';
import type { JsonRequester } from '../../infra/http/json-request.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { ConnectorDirectory } from '../connector-directory.ts';
import type { CredentialCipher } from '../credentials.ts';
import { shopifyAdminClient } from './admin-client.ts';
import { shopifyCarrierRates } from './carrier-rates.ts';
import { shopifyOperations } from './operations.ts';
import { shopifyLinking } from './shopify-link.ts';
import { shopifyTrackingSync } from './tracking-sync.ts';
import { shopifyWebhookInbox } from './webhook-inbox.ts';

/** The Shopify connector, wired once (deps.ts) when SHOPIFY_API_KEY and SHOPIFY_API_SECRET are set. */
export function shopifyConnector(deps: {
  app: ShopifyAppConfig;
  stores: Stores;
  transact: Transact;
  orders: OrderService;
  rates: RateService;
  connections: ConnectionsService;
  directory: ConnectorDirectory;
  cipher: CredentialCipher;
  /** Calls to Shopify, through its outbound client (deps.ts). */
  request: JsonRequester;
  clock: () => Date;
  baseUrl: string;
  processJob: string;
}) {
  const { app, stores, clock } = deps;
  const client = shopifyAdminClient({
    adminOriginTemplate: app.adminOriginTemplate,
    apiKey: app.apiKey,
    apiSecret: app.apiSecret,
    request: deps.request,
    clock,
  });
  const operations = shopifyOperations(client);
  const onChanged = () => deps.directory.forget();
  return {
    app,
    client,
    operations,
    linking: shopifyLinking({
      app,
      stores,
      client,
      operations,
      cipher: deps.cipher,
      clock,
      baseUrl: deps.baseUrl,
      onChanged,
    }),
    inbox: shopifyWebhookInbox({
      stores,
      transact: deps.transact,
      orders: deps.orders,
      clock,
      processJob: deps.processJob,
      carrierName: app.carrierName,
      onChanged,
    }),
    rates: shopifyCarrierRates({
      rates: deps.rates,
      directory: deps.directory,
      carrierName: app.carrierName,
    }),
    tracking: shopifyTrackingSync({
      stores,
      connections: deps.connections,
      operations,
      carrierName: app.carrierName,
    }),
    /** The per-order job queues of the tracking sync (src/outbox-subscribers.ts perOrderQueue). */
    syncQueues: {
      nameOf: (queueId: number) => stores.jobQueue.queueName(queueId),
      olderEventDue: (task: string, queueId: number, jobId: string, eventId: string) =>
        stores.connectorSync.olderQueuedEventDue(task, queueId, jobId, eventId),
    },
  };
}

export type ShopifyConnector = ReturnType<typeof shopifyConnector>;
