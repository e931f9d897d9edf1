import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { ShopLinkAttention } from '../../connectors/link-attention.ts';
import type { ConnectorResync } from '../../connectors/resync.ts';
import type { Pool } from '../../db/pool.ts';
import type { ApiKeyService } from '../../domain/api-keys/api-key-service.ts';
import type { AuditLog } from '../../domain/audit/audit-log.ts';
import type { BrandService } from '../../domain/brands/brand-service.ts';
import type { CourierService } from '../../domain/couriers/courier-service.ts';
import type { FleetService } from '../../domain/fleet/fleet-service.ts';
import type { InvoiceService } from '../../domain/invoices/invoice-service.ts';
import type { OperatorService } from '../../domain/operators/operator-service.ts';
import type { OperatorSessions } from '../../domain/operators/operator-sessions.ts';
import type { OpsTokenService } from '../../domain/operators/ops-token-service.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { GridService } from '../../domain/pricing/grid-service.ts';
import type { RecipientNotifications } from '../../domain/recipients/notification-service.ts';
import type { RoundService } from '../../domain/rounds/round-service.ts';
import type { Clock } from '../../domain/shared/clock.ts';
import type { WebhookRequests } from '../../domain/webhooks/webhook-requests.ts';
import type { WebhookService } from '../../domain/webhooks/webhook-service.ts';
import type { cookieSigner } from '../account/session-cookies.ts';
import type { BoardWatcher } from './board-watcher.ts';
import type { ConsoleContext } from './views/layout.ts';

/** What the console uses: the same services as the operations API. */
export interface ConsoleDeps {
  config: Config;
  pool: Pool;
  clock: Clock;
  operators: OperatorService;
  operatorSessions: OperatorSessions;
  opsTokens: OpsTokenService;
  audit: AuditLog;
  brands: BrandService;
  apiKeys: ApiKeyService;
  invoices: InvoiceService;
  orders: OrderService;
  // The Exceptions' and Brands' actions (issue 39): resend, shop links, grids, webhooks on request.
  recipientNotifications: RecipientNotifications;
  shopLinks: ShopLinkAttention;
  resync: ConnectorResync;
  grids: GridService;
  webhooks: WebhookService;
  webhookRequests: WebhookRequests;
  // Planning: the day's rounds, the couriers and vehicles they are given to.
  rounds: RoundService;
  couriers: CourierService;
  fleet: FleetService;
}

/** What each page module of the console is given: the services, the cookie signer, the page context. */
export type ConsoleRouteDeps = ConsoleDeps & {
  signer: ReturnType<typeof cookieSigner>;
  context: (request: FastifyRequest, reply: FastifyReply) => Promise<ConsoleContext>;
  watcher: BoardWatcher;
};
