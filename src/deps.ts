import path from 'node:path';
import { type Config, isDevelopment } from './config.ts';
import { connectionsService } from './connectors/connections-service.ts';
import { connectorDirectory } from './connectors/connector-directory.ts';
import { credentialCipher } from './connectors/credentials.ts';
import { prestashopConnector } from './connectors/prestashop/prestashop-connector.ts';
import { connectorResync } from './connectors/resync.ts';
import { type ShopifyConnector, shopifyConnector } from './connectors/shopify/shopify-connector.ts';
import {
  type WooCommerceConnector,
  wooCommerceConnector,
} from './connectors/woocommerce/woocommerce-connector.ts';
import type { Pool } from './db/pool.ts';
import { serverSecretsRepository } from './db/repositories/server-secrets-repository.ts';
import { storesOn, transactOn } from './db/stores.ts';
import { accountService } from './domain/accounts/account-service.ts';
import { keyManagement } from './domain/accounts/key-management.ts';
import { teamManagement } from './domain/accounts/team.ts';
import { apiKeyService } from './domain/api-keys/api-key-service.ts';
import { apiKeyAuthenticator } from './domain/api-keys/authenticator.ts';
import { brandService } from './domain/brands/brand-service.ts';
import { invoiceService } from './domain/invoices/invoice-service.ts';
import { orderLinks } from './domain/orders/order-json.ts';
import { orderService } from './domain/orders/order-service.ts';
import { TERMINAL_STATUSES } from './domain/orders/state-machine.ts';
import { keyFromSecret, lazyCursorCodec } from './domain/pagination/cursor.ts';
import { gridService } from './domain/pricing/grid-service.ts';
import { rateService } from './domain/rates/rate-service.ts';
import { webhookDeliveryService } from './domain/webhooks/webhook-delivery-service.ts';
import { webhookListeners } from './domain/webhooks/webhook-listeners.ts';
import { webhookRequests } from './domain/webhooks/webhook-requests.ts';
import { webhookService } from './domain/webhooks/webhook-service.ts';
import { webhookSubscriptions } from './domain/webhooks/webhook-subscriptions.ts';
import { AppError } from './errors.ts';
import { outbox } from './events/outbox.ts';
import { ORDER_QUEUE_PREFIXES, subscribers } from './events/subscribers.ts';
import { idempotentRequests } from './http/public/idempotent-requests.ts';
import { jsonRequester } from './infra/http/json-request.ts';
import { outboundClient } from './infra/http/outbound-client.ts';
import { sendWebhook } from './infra/http/outbound-http.ts';
import { destinationGuard } from './infra/http/url-guard.ts';
import { accountMail } from './infra/mail/account-mail.ts';
import { createMailer, type Mailer } from './infra/mail/mailer.ts';
import { redisRateLimiter } from './infra/rate-limit/redis-rate-limiter.ts';
import { type BucketPolicy, memoryRateLimiter, type RateLimiter } from './infra/rate-limit/token-bucket.ts';
import {
  PRESTASHOP_PROCESS_PUSH_SPEC,
  SHOPIFY_PROCESS_WEBHOOK_SPEC,
  WOOCOMMERCE_PROCESS_ORDER_SPEC,
} from './jobs/job-names.ts';

/** Sign-in attempts: 10 per 15 minutes, per account and per address. */
const SIGN_IN_POLICY: BucketPolicy = { burst: 10, perSecond: 10 / (15 * 60) };
/** Password-reset e-mails: 5 an hour, per e-mail address and per client address. */
const RESET_MAIL_POLICY: BucketPolicy = { burst: 5, perSecond: 5 / 3600 };

export type Clock = () => Date;

/**
 * The composition root: stores (db/), outside systems (infra/) and services (domain/) wired once,
 * from the config and one pool. Services get stores and a transaction runner, never the pool.
 */
export function createDeps(
  config: Config,
  pool: Pool,
  clock: Clock = () => new Date(),
  options: { mailer?: Mailer; log?: (message: string) => void } = {},
) {
  const stores = storesOn(pool);
  const transact = transactOn(pool);
  const destinations = destinationGuard({ allowInsecure: config.webhooksAllowInsecure });
  // Shops' addresses are the brands' choice: the same SSRF guard as webhook endpoints, in shop terms.
  const shopPolicy = {
    allowInsecure: config.connectorsAllowInsecure,
    publicRule: 'the shop must be reachable at a public address',
  };
  const shopGuard = destinationGuard(shopPolicy);
  // Every outbound call goes through one of these (src/infra/http/outbound-client.ts): the guard is
  // the connection's own DNS resolution. Shopify's admin origins are shops' myshopify.com names,
  // guarded like other shops (a fake Shopify on loopback needs CONNECTORS_ALLOW_INSECURE).
  const webhookHttp = outboundClient({ allowInsecure: config.webhooksAllowInsecure });
  const shopHttp = outboundClient(shopPolicy);
  const shopifyHttp = outboundClient({
    allowInsecure: config.connectorsAllowInsecure,
    publicRule: 'Shopify must be reachable at a public address',
  });

  const brands = brandService(stores.brands);
  const authenticator = apiKeyAuthenticator(stores.apiKeys, {
    ttlMs: config.authCacheTtlMs,
    now: () => clock().getTime(),
  });
  const apiKeys = apiKeyService(stores.apiKeys, transact, brands, (keyId) => authenticator.forget(keyId));
  const grids = gridService(stores.priceGrids, brands);
  const rates = rateService(grids, clock);
  // Loaded once (server.ts does it at start-up), then kept: no key lookup per list request.
  const cursors = lazyCursorCodec(async () =>
    config.cursorSecret
      ? keyFromSecret(config.cursorSecret)
      : serverSecretsRepository(pool).getOrCreate('cursor_key'),
  );

  const listeners = webhookListeners(stores.webhooks);
  const directory = connectorDirectory(stores.connections);
  const events = outbox(
    subscribers({
      webhooks: listeners,
      shopify: config.shopify ? directory : null,
      prestashop: directory,
      woocommerce: config.woocommerce ? directory : null,
    }),
  );
  // The order JSON's links (tracking_url) and the shops' callbacks point at this deployment:
  // PUBLIC_BASE_URL, else the listen address.
  const baseUrl = config.publicBaseUrl ?? `http://${config.host}:${config.port}`;
  const links = orderLinks(baseUrl);
  const orders = orderService({ stores, transact, grids, outbox: events, clock, cursors, links });
  const invoices = invoiceService({
    stores,
    transact,
    outbox: events,
    brands,
    clock,
    seller: config.seller,
    cursors,
  });
  const webhooks = webhookService({
    repository: stores.webhooks,
    brands,
    clock,
    destinations,
    onSubscriptionsChanged: listeners.forget,
  });
  const subscriptions = webhookSubscriptions({
    stores,
    transact,
    destinations,
    clock,
    onSubscriptionsChanged: listeners.forget,
  });
  // The account area's "request an endpoint" form: same SSRF guard as the operator's `webhooks add`.
  const webhookRequestService = webhookRequests({ repository: stores.webhookRequests, destinations, clock });
  const webhookDeliveries = webhookDeliveryService({
    stores,
    transact,
    clock,
    send: (input) => sendWebhook(webhookHttp, input),
  });
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dropDir: path.join(config.dataDir, 'mail'),
      // stderr by default: the CLI keeps stdout for its one result.
      log: options.log ?? ((message) => process.stderr.write(`${message}\n`)),
    });
  // Made on first use: a `dlv` command must not open a Redis connection it never needs.
  const lazyLimiter = (policy: BucketPolicy): RateLimiter => {
    let limiter: RateLimiter | null = null;
    return {
      take: (key) => {
        limiter ??= config.redisUrl ? redisRateLimiter(config.redisUrl, policy) : memoryRateLimiter(policy);
        return limiter.take(key);
      },
      close: async () => {
        await limiter?.close();
      },
    };
  };
  const signInLimiter = lazyLimiter(SIGN_IN_POLICY);
  const resetLimiter = lazyLimiter(RESET_MAIL_POLICY);
  const accounts = accountService({
    users: stores.users,
    sessions: stores.sessions,
    transact,
    mail: accountMail(mailer, config.publicBaseUrl ?? `http://${config.host}:${config.port}`),
    signInLimiter,
    resetLimiter,
    signup: config.accountSignup,
    clock,
    onKeyRevoked: (keyId) => authenticator.forget(keyId),
    onShopsChanged: directory.forget,
  });
  const accountKeys = keyManagement({
    keys: stores.apiKeys,
    transact,
    onRevoked: (keyId) => authenticator.forget(keyId),
    clock,
  });
  const team = teamManagement({ users: stores.users, transact, accounts });
  // Shop credentials: CONNECTOR_SECRET_KEY; in development only (config.ts enforces it), a key kept
  // in the database. Loaded on first use.
  const cipher = credentialCipher(
    async () => config.connectorSecretKey ?? serverSecretsRepository(pool).getOrCreate('connector_key'),
  );
  const shopifyApp = config.shopify;
  const connections = connectionsService({
    stores,
    cipher,
    clock,
    onChanged: directory.forget,
    remoteCleanup: {
      shopify: async (connection, token) => {
        // Without the app's configuration the shop cannot be called: its registrations stay.
        if (!shopify) throw new Error('the Shopify connector is not configured');
        const failures = await shopify.operations.unregister(connection.shop, token, connection.remoteIds);
        if (failures.length) throw new Error(failures.join('; '));
      },
      woocommerce: async (connection) => {
        await woocommerce?.removeWebhooks(connection);
      },
    },
  });
  const shopify: ShopifyConnector | null = shopifyApp
    ? shopifyConnector({
        app: shopifyApp,
        stores,
        transact,
        orders,
        rates,
        connections,
        directory,
        cipher,
        request: jsonRequester(shopifyHttp),
        clock,
        baseUrl,
        processJob: SHOPIFY_PROCESS_WEBHOOK_SPEC.name,
      })
    : null;
  const prestashop = prestashopConnector({
    stores,
    transact,
    orders,
    connections,
    cipher,
    guard: shopGuard,
    request: jsonRequester(shopHttp),
    clock,
    // The same rule as the Shopify connector's (config.ts): a published service keeps no shop
    // credentials under a key stored beside them.
    refusal:
      config.connectorSecretKey === null && !isDevelopment(config.publicBaseUrl)
        ? 'Shop credentials cannot be stored: set CONNECTOR_SECRET_KEY (`openssl rand -hex 32`).'
        : null,
    onChanged: directory.forget,
    processJob: PRESTASHOP_PROCESS_PUSH_SPEC.name,
  });
  const woocommerce: WooCommerceConnector | null = config.woocommerce
    ? wooCommerceConnector({
        stores,
        transact,
        orders,
        connections,
        directory,
        cipher,
        guard: shopGuard,
        request: jsonRequester(shopHttp),
        clock,
        baseUrl,
        carrierName: config.carrierName,
        processJob: WOOCOMMERCE_PROCESS_ORDER_SPEC.name,
      })
    : null;
  return {
    config,
    pool,
    accounts,
    accountKeys,
    team,
    mailer,
    signInLimiter,
    resetLimiter,
    clock,
    brands,
    apiKeys,
    authenticator,
    grids,
    rates,
    orders,
    links,
    invoices,
    webhooks,
    webhookRequests: webhookRequestService,
    subscriptions,
    webhookDeliveries,
    idempotentRequests: idempotentRequests({ stores, transact }),
    /** Every brand's shop links (all platforms): list, health, problems, disconnect. */
    connections,
    /** Which shops and brands have active links, cached (rates at checkout, the outbox). */
    connectorDirectory: directory,
    /** The Shopify connector; null unless SHOPIFY_API_KEY and SHOPIFY_API_SECRET are set. */
    shopify,
    /** The PrestaShop connector (always on: each shop brings its own secret and Webservice key). */
    prestashop,
    /** `dlv connectors resync`: each platform that can read its orders back plugs in here. */
    resync: connectorResync({
      connections,
      clock,
      resyncers: {
        prestashop: async (connection, since) => {
          const from = since ?? connection.createdAt;
          return { outcome: await prestashop.poll.resync(connection, from), from };
        },
        // From the link's high-water mark unless told otherwise: WooCommerce never retries webhooks.
        woocommerce: async (connection, since) => {
          if (!woocommerce) throw new AppError('invalid_request', 'The WooCommerce bridge is off.');
          const found = await woocommerce.poll.poll(connection.id, { since });
          const outcome = [
            `${found.seen} orders read, ${found.stored} new to process`,
            ...found.webhooks,
          ].join('; ');
          return { outcome, from: since ?? null, figures: { seen: found.seen, stored: found.stored } };
        },
      },
    }),
    /** Jobs held by a worker that died, run again (src/jobs/recover-stalled-jobs.ts). */
    jobQueue: {
      recoverStalled: (tasks: readonly string[], graceMs: number) =>
        stores.jobQueue.unlockStalled(tasks, graceMs),
      /** The per-order queues of the shop connectors whose order is finished (jobs/cleanup-order-queues.ts). */
      deleteFinishedOrderQueues: async () => {
        for (const prefix of ORDER_QUEUE_PREFIXES)
          await stores.jobQueue.deleteFinishedOrderQueues(prefix, TERMINAL_STATUSES);
      },
    },
    /** The WooCommerce bridge; null when published (https) without CONNECTOR_SECRET_KEY. */
    woocommerce,
    /** Caches that poll the database for changes made by other instances (started with the app). */
    watchers: [grids, listeners, directory],
    cursors,
  };
}

export type Deps = ReturnType<typeof createDeps>;
