import type { Config } from './config.ts';
import type { Pool } from './db/pool.ts';
import { type Stores, storesOn, type Transact, transactOn } from './db/stores.ts';
import { type ApiKeyService, apiKeyService } from './domain/api-keys/api-key-service.ts';
import { type ApiKeyAuthenticator, apiKeyAuthenticator } from './domain/api-keys/authenticator.ts';
import { operatorAuditTrail } from './domain/audit/operator-audit.ts';
import { type BrandService, brandService } from './domain/brands/brand-service.ts';
import type { OperatorAudit } from './domain/operators/acting.ts';
import { type OperatorService, operatorService } from './domain/operators/operator-service.ts';
import { type OpsTokenService, opsTokenService } from './domain/operators/ops-token-service.ts';
import { type GridService, gridService } from './domain/pricing/grid-service.ts';
import { type Clock, millisOf, systemClock } from './domain/shared/clock.ts';
import type { DestinationGuard } from './domain/webhooks/outbound.ts';
import { type WebhookListeners, webhookListeners } from './domain/webhooks/webhook-listeners.ts';
import { type WebhookRequests, webhookRequests } from './domain/webhooks/webhook-requests.ts';
import { type WebhookService, webhookService } from './domain/webhooks/webhook-service.ts';
import { destinationGuard } from './infra/http/url-guard.ts';

// The first layer of the composition root (src/deps.ts builds everything else on it): the services
// that need neither the shop connectors, the outbox, mail nor documents. Apart so that a `dlv`
// command using only these (brands, keys, grids, webhooks, operators, ops-tokens) loads and wires only
// them (convention 17).

/** What a command of the core groups may use (src/cli/context.ts `coreCommand`); `Deps` has them all. */
export interface CoreDeps {
  config: Config;
  pool: Pool;
  clock: Clock;
  brands: BrandService;
  apiKeys: ApiKeyService;
  authenticator: ApiKeyAuthenticator;
  grids: GridService;
  webhooks: WebhookService;
  webhookRequests: WebhookRequests;
  /** The delivery company's people: accounts, roles (`dlv operators`, the operations API). */
  operators: OperatorService;
  /** The operations API's machine tokens (`dlv ops-tokens`), and their verification. */
  opsTokens: OpsTokenService;
}

/** The core services, and the parts createDeps wires the rest with. */
export interface CoreWiring extends CoreDeps {
  stores: Stores;
  transact: Transact;
  /** Webhook endpoints' SSRF guard (WEBHOOKS_ALLOW_INSECURE), shared with the subscriptions. */
  destinations: DestinationGuard;
  listeners: WebhookListeners;
  /** Where the audit trail writes the operators' and tokens' changes (createDeps gives it to the sessions too). */
  operatorAudit: OperatorAudit;
}

export function createCoreDeps(config: Config, pool: Pool, clock: Clock = systemClock): CoreWiring {
  const stores = storesOn(pool);
  const transact = transactOn(pool);
  const destinations = destinationGuard({ allowInsecure: config.webhooksAllowInsecure });
  const brands = brandService({ brands: stores.brands, transact });
  const authenticator = apiKeyAuthenticator(stores.apiKeys, {
    ttlMs: config.authCacheTtlMs,
    now: millisOf(clock),
  });
  const apiKeys = apiKeyService(stores.apiKeys, transact, brands, (keyId) => authenticator.forget(keyId));
  const grids = gridService(stores.priceGrids, brands, transact);
  const listeners = webhookListeners(stores.webhooks);
  const webhooks = webhookService({
    repository: stores.webhooks,
    transact,
    brands,
    clock,
    destinations,
    onSubscriptionsChanged: listeners.forget,
    retentionDays: config.retention.messageLogDays,
  });
  // The account area's "request an endpoint" form: same SSRF guard as the operator's `webhooks add`.
  const requests = webhookRequests({ repository: stores.webhookRequests, transact, destinations, clock });
  // The operators' changes write their audit rows through this hook, inside each change's transaction.
  const operatorAudit: OperatorAudit = operatorAuditTrail;
  return {
    config,
    pool,
    clock,
    stores,
    transact,
    destinations,
    listeners,
    brands,
    apiKeys,
    authenticator,
    grids,
    webhooks,
    webhookRequests: requests,
    operatorAudit,
    operators: operatorService({ operators: stores.operators, transact, clock, audit: operatorAudit }),
    opsTokens: opsTokenService({
      tokens: stores.opsTokens,
      transact,
      clock,
      audit: operatorAudit,
      cacheTtlMs: config.authCacheTtlMs,
    }),
  };
}
