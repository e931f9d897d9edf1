import type { Config } from './config.ts';
import type { Pool } from './db/pool.ts';
import { apiKeysRepository } from './db/repositories/api-keys-repository.ts';
import { brandsRepository } from './db/repositories/brands-repository.ts';
import { priceGridsRepository } from './db/repositories/price-grids-repository.ts';
import { serverSecretsRepository } from './db/repositories/server-secrets-repository.ts';
import { webhooksRepository } from './db/repositories/webhooks-repository.ts';
import { apiKeyService } from './domain/api-keys/api-key-service.ts';
import { apiKeyAuthenticator } from './domain/api-keys/authenticator.ts';
import { brandService } from './domain/brands/brand-service.ts';
import { invoiceService } from './domain/invoices/invoice-service.ts';
import { orderService } from './domain/orders/order-service.ts';
import { keyFromSecret, lazyCursorCodec } from './domain/pagination/cursor.ts';
import { gridService } from './domain/pricing/grid-service.ts';
import { rateService } from './domain/rates/rate-service.ts';
import { webhookService } from './domain/webhooks/webhook-service.ts';

export type Clock = () => Date;

/** The composition root: every service wired once, from the config and one pool. */
export function createDeps(config: Config, pool: Pool, clock: Clock = () => new Date()) {
  const brands = brandService(brandsRepository(pool));
  const keysRepository = apiKeysRepository(pool);
  const authenticator = apiKeyAuthenticator(keysRepository, { ttlMs: config.authCacheTtlMs });
  const apiKeys = apiKeyService(keysRepository, brands, (keyId) => authenticator.forget(keyId));
  const grids = gridService(priceGridsRepository(pool), brands);
  const rates = rateService(grids, clock);
  // Loaded once (server.ts does it at start-up), then kept: no key lookup per list request.
  const cursors = lazyCursorCodec(async () =>
    config.cursorSecret
      ? keyFromSecret(config.cursorSecret)
      : serverSecretsRepository(pool).getOrCreate('cursor_key'),
  );
  const orders = orderService({ pool, grids, clock, cursors });
  const webhooks = webhookService({
    repository: webhooksRepository(pool),
    brands,
    clock,
    allowInsecure: config.webhooksAllowInsecure,
  });
  const invoices = invoiceService({ pool, brands, clock, seller: config.seller, cursors });
  return {
    config,
    pool,
    clock,
    brands,
    apiKeys,
    authenticator,
    grids,
    rates,
    orders,
    invoices,
    webhooks,
    cursors,
  };
}

export type Deps = ReturnType<typeof createDeps>;
