import type { Stores, Transact } from '../../db/stores.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { JsonRequester } from '../../infra/http/json-request.ts';
import type { DestinationGuard } from '../../infra/http/url-guard.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { ConnectorDirectory } from '../connector-directory.ts';
import type { CredentialCipher } from '../credentials.ts';
import { connectorOrderSync } from '../order-sync.ts';
import { wooLinking } from './linking.ts';
import { wooOperations } from './operations.ts';
import { wooOrderSync } from './order-sync.ts';
import { wooPoll } from './poll.ts';
import { wooRestClient } from './rest-client.ts';
import { wooStatusSync } from './status-sync.ts';
import { wooWebhookReceiver } from './webhook-receiver.ts';
import { wooAccess } from './woo-credentials.ts';

/**
 * The WooCommerce bridge, wired once (deps.ts). It needs no app credentials of ours: each shop
 * gives its own key pair. `guard` is the SSRF guard for shop addresses (CONNECTORS_ALLOW_INSECURE
 * lets local http shops through, for development and tests); `request` goes out through the shops'
 * outbound client, which applies the same guard to the address it connects to.
 */
export function wooCommerceConnector(deps: {
  stores: Stores;
  transact: Transact;
  orders: OrderService;
  connections: ConnectionsService;
  directory: ConnectorDirectory;
  cipher: CredentialCipher;
  guard: DestinationGuard;
  request: JsonRequester;
  clock: () => Date;
  baseUrl: string;
  carrierName: string;
  processJob: string;
}) {
  const { stores, clock } = deps;
  const operations = wooOperations(wooRestClient({ request: deps.request }));
  const onChanged = () => deps.directory.forget();
  const intake = connectorOrderSync(deps);
  const orderSync = wooOrderSync({
    stores,
    connections: deps.connections,
    operations,
    intake,
    clock,
    processJob: deps.processJob,
  });
  return {
    operations,
    orderSync,
    linking: wooLinking({
      stores,
      operations,
      cipher: deps.cipher,
      guard: deps.guard,
      clock,
      baseUrl: deps.baseUrl,
      appName: deps.carrierName,
      onChanged,
    }),
    receiver: wooWebhookReceiver({ stores, connections: deps.connections, orderSync }),
    poll: wooPoll({
      stores,
      connections: deps.connections,
      operations,
      orderSync,
      clock,
      baseUrl: deps.baseUrl,
      onChanged,
    }),
    status: wooStatusSync({
      stores,
      connections: deps.connections,
      operations,
      carrierName: deps.carrierName,
    }),
    /** The links the poll visits. */
    activeLinks: () => stores.connections.listActive('woocommerce'),
    /** Disconnecting: our webhooks are deleted from the shop (best effort). */
    async removeWebhooks(connection: Parameters<typeof wooAccess>[1]): Promise<void> {
      const shop = await wooAccess(deps.connections, connection);
      const failures = shop
        ? await operations.deleteWebhooks(shop, connection.remoteIds.webhookSubscriptions ?? [])
        : [];
      // The disconnect still happens; the brand is told to delete them in WooCommerce › Webhooks.
      if (failures.length > 0) throw new Error(`could not delete webhooks: ${failures.join('; ')}`);
    },
  };
}

export type WooCommerceConnector = ReturnType<typeof wooCommerceConnector>;
