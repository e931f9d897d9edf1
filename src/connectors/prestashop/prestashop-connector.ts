import type { Stores, Transact } from '../../db/stores.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { JsonRequester } from '../../infra/http/json-request.ts';
import type { DestinationGuard } from '../../infra/http/url-guard.ts';
import type { ConnectionsService } from '../connections-service.ts';
import type { CredentialCipher } from '../credentials.ts';
import { prestashopLinkUpkeep } from './link-upkeep.ts';
import { prestashopOrderPoll } from './order-poll.ts';
import { prestashopLinking } from './prestashop-link.ts';
import { prestashopPushInbox } from './push-inbox.ts';
import { prestashopShopHealth } from './shop-health.ts';
import { prestashopStatusSync } from './status-sync.ts';
import { prestashopWebservice } from './webservice-client.ts';

/**
 * The PrestaShop connector, wired once (deps.ts). It needs no app credentials of ours: each shop is
 * linked with a secret we generate (the module signs its pushes with it) and, optionally, a
 * Webservice key of the shop (the poll and statuses back).
 */
export function prestashopConnector(deps: {
  stores: Stores;
  transact: Transact;
  orders: OrderService;
  connections: ConnectionsService;
  cipher: CredentialCipher;
  /** The SSRF guard for shop URLs (CONNECTORS_ALLOW_INSECURE: http and loopback shops). */
  guard: DestinationGuard;
  /** Calls to shops, through the shops' outbound client (the same guard on the address connected to). */
  request: JsonRequester;
  clock: () => Date;
  /** Why shop credentials may not be stored here, or null. */
  refusal: string | null;
  onChanged: () => void;
  processJob: string;
}) {
  const { stores, clock, cipher, connections } = deps;
  const ws = prestashopWebservice({ request: deps.request });
  const health = prestashopShopHealth({ stores, connections, clock });
  const inbox = prestashopPushInbox({
    stores,
    transact: deps.transact,
    orders: deps.orders,
    cipher,
    clock,
    processJob: deps.processJob,
  });
  return {
    linking: prestashopLinking({
      stores,
      transact: deps.transact,
      ws,
      guard: deps.guard,
      cipher,
      clock,
      refusal: deps.refusal,
      onChanged: deps.onChanged,
    }),
    upkeep: prestashopLinkUpkeep({
      stores,
      transact: deps.transact,
      connections,
      ws,
      cipher,
      clock,
      refusal: deps.refusal,
      onChanged: deps.onChanged,
    }),
    inbox,
    /** The brand's links' poll state and last push, for the Shops page. */
    overview: (brandId: string) => stores.prestashopShops.overview(brandId),
    statuses: prestashopStatusSync({ stores, connections, cipher, ws, health, clock }),
    poll: prestashopOrderPoll({ stores, connections, cipher, ws, inbox, health, clock }),
  };
}

export type PrestaShopConnector = ReturnType<typeof prestashopConnector>;
