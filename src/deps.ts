import path from 'node:path';
import { type Config, isDevelopment } from './config.ts';
import { type ConnectionsService, connectionsService } from './connectors/connections-service.ts';
import { type ConnectorDirectory, connectorDirectory } from './connectors/connector-directory.ts';
import { credentialCipher } from './connectors/credentials.ts';
import { type ShopLinkAttention, shopLinkAttention } from './connectors/link-attention.ts';
import {
  type ActiveConnector,
  connectorsOn,
  EXTRA_STATUSES,
  ORDER_QUEUE_PREFIXES,
  remoteCleanups,
  type WiredConnectors,
  type WiredRegistry,
  wireConnectors,
} from './connectors/registry.ts';
import { type ConnectorResync, connectorResync } from './connectors/resync.ts';
import { type CoreDeps, createCoreDeps } from './core-deps.ts';
import { type OptOutKeyring, optOutKeyring } from './db/opt-out-key.ts';
import type { Pool } from './db/pool.ts';
import { privacyTransact } from './db/privacy-stores.ts';
import { addressPointsRepository } from './db/repositories/address-points-repository.ts';
import { arrivalsRepository } from './db/repositories/arrivals-repository.ts';
import { auditRepository } from './db/repositories/audit-repository.ts';
import { deliveryAttemptsRepository } from './db/repositories/delivery-attempts-repository.ts';
import { drivenRoundsRepository } from './db/repositories/driven-rounds-repository.ts';
import { emissionsRepository } from './db/repositories/emissions-repository.ts';
import { labelsRepository } from './db/repositories/labels-repository.ts';
import { messageLogsRepository } from './db/repositories/message-logs-repository.ts';
import { recipientDataRepository } from './db/repositories/recipient-data-repository.ts';
import {
  notificationFactsRepository,
  recipientNotificationsRepository,
} from './db/repositories/recipient-notifications-repository.ts';
import { recipientOptOutsRepository } from './db/repositories/recipient-opt-outs-repository.ts';
import { recipientSettingsRepository } from './db/repositories/recipient-settings-repository.ts';
import { roundDistancesRepository } from './db/repositories/round-distances-repository.ts';
import { serverSecretsRepository } from './db/repositories/server-secrets-repository.ts';
import { smsDeliveryReportsRepository } from './db/repositories/sms-delivery-reports-repository.ts';
import { smsOptInsRepository } from './db/repositories/sms-opt-ins-repository.ts';
import { selfServiceStoresOn, selfServiceTransact } from './db/self-service-stores.ts';
import { type Transact, transactWith } from './db/stores.ts';
import { type AccountService, accountService } from './domain/accounts/account-service.ts';
import { type KeyManagement, keyManagement } from './domain/accounts/key-management.ts';
import { type TeamManagement, teamManagement } from './domain/accounts/team.ts';
import { type ArrivalTimes, arrivalTimes } from './domain/arrivals/arrival-service.ts';
import { systemAuthor } from './domain/audit/actor.ts';
import { type AuditLog, auditLog } from './domain/audit/audit-log.ts';
import { type CourierService, courierService } from './domain/couriers/courier-service.ts';
import type { EInvoicePlatform } from './domain/einvoicing/ports.ts';
import {
  type EInvoiceTransmissionService,
  einvoiceTransmissionService,
} from './domain/einvoicing/transmission-service.ts';
import { type EmissionService, emissionService } from './domain/emissions/emission-service.ts';
import { type FleetService, fleetService } from './domain/fleet/fleet-service.ts';
import { type InvoiceService, invoiceService } from './domain/invoices/invoice-service.ts';
import { type LabelService, labelService } from './domain/labels/label-service.ts';
import { type OperatorSessions, operatorSessions } from './domain/operators/operator-sessions.ts';
import { totpSealer } from './domain/operators/totp-sealer.ts';
import { type AddressChecks, addressChecks } from './domain/orders/address-checks.ts';
import { deliveryLocationOf, type OrderLinks, orderLinks } from './domain/orders/order-json.ts';
import { type OrderService, orderService } from './domain/orders/order-service.ts';
import { TERMINAL_STATUSES } from './domain/orders/state-machine.ts';
import { type CursorCodec, keyFromSecret, lazyCursorCodec } from './domain/pagination/cursor.ts';
import { type PickupService, pickupService } from './domain/pickups/pickup-service.ts';
import { type AddressValidator, addressValidator } from './domain/places/address-validation.ts';
import { knownAddresses } from './domain/places/known-addresses.ts';
import { type PlaceService, placeService } from './domain/places/place-service.ts';
import type { PlaceStore, PlacesObserver, TravelTimes } from './domain/places/ports.ts';
import { estimatedTravelTimes } from './domain/places/travel-estimate.ts';
import { type MessageLogRetention, messageLogRetention } from './domain/privacy/message-log-retention.ts';
import { type RecipientDataService, recipientDataService } from './domain/privacy/recipient-data-service.ts';
import type { ImageCodec } from './domain/proofs/ports.ts';
import { type ProofDeliveries, proofDeliveries } from './domain/proofs/proof-deliveries.ts';
import { type ProofService, proofService } from './domain/proofs/proof-service.ts';
import { proofUrlSigner } from './domain/proofs/proof-urls.ts';
import { type RateService, rateService } from './domain/rates/rate-service.ts';
import { addressKeys } from './domain/recipients/address-key.ts';
import type { OptOutsByKey } from './domain/recipients/notification-ports.ts';
import {
  type RecipientNotifications,
  recipientNotifications,
} from './domain/recipients/notification-service.ts';
import type {
  OptOuts,
  RecipientMailer,
  RecipientSettingsRepository,
  SmsSender,
} from './domain/recipients/ports.ts';
import { recipientDataSealer } from './domain/recipients/recipient-data-sealer.ts';
import { type SelfService, selfService } from './domain/recipients/self-service.ts';
import {
  type RecipientSettingsService,
  recipientSettingsService,
} from './domain/recipients/settings-service.ts';
import type { SmsDeliveryReports } from './domain/recipients/sms-delivery-reports.ts';
import { type SmsReplies, smsReplies } from './domain/recipients/sms-replies.ts';
import { type Unsubscribes, unsubscribes } from './domain/recipients/unsubscribe-service.ts';
import { unsubscribeTokens } from './domain/recipients/unsubscribe-token.ts';
import { type RoundService, roundService } from './domain/rounds/round-service.ts';
import { createInProcessOptimiser } from './domain/routing/in-process-optimiser.ts';
import type { RoutingObserver } from './domain/routing/ports.ts';
import type { DoorAttempt, ScanObserver } from './domain/scans/ports.ts';
import { type ScanService, scanService } from './domain/scans/scan-service.ts';
import { type Clock, systemClock } from './domain/shared/clock.ts';
import { testOutbox } from './domain/test-mode/magic-values.ts';
import { type SimulationService, simulationService } from './domain/test-mode/simulation.ts';
import { type TestData, testDataService } from './domain/test-mode/test-data.ts';
import type { DeliveryObserver } from './domain/webhooks/ports.ts';
import {
  type WebhookDeliveryService,
  webhookDeliveryService,
} from './domain/webhooks/webhook-delivery-service.ts';
import { type WebhookSubscriptions, webhookSubscriptions } from './domain/webhooks/webhook-subscriptions.ts';
import { outbox } from './events/outbox.ts';
import { type IdempotentRequests, idempotentRequests } from './http/public/idempotent-requests.ts';
import { SMS_STATUS_PATH } from './http/sms/paths.ts';
import { createEInvoicePlatform } from './infra/einvoicing/index.ts';
import { banGeocoder } from './infra/geo/ban-geocoder.ts';
import { osrmTravelTimes } from './infra/geo/osrm-travel-times.ts';
import { jsonRequester } from './infra/http/json-request.ts';
import { outboundClient } from './infra/http/outbound-client.ts';
import { sendWebhook } from './infra/http/outbound-http.ts';
import { destinationGuard } from './infra/http/url-guard.ts';
import { sharpLogoCodec } from './infra/images/logo-codec.ts';
import { sharpCodec } from './infra/images/sharp-codec.ts';
import { accountMail } from './infra/mail/account-mail.ts';
import { createMailer, type Mailer } from './infra/mail/mailer.ts';
import { createRecipientMailer } from './infra/mail/recipient-mailer.ts';
import { createObjectStore } from './infra/object-store/index.ts';
import { type JobQueue, jobQueueOn } from './infra/queue/job-queue.ts';
import { type RedisHealth, redisHealth } from './infra/rate-limit/redis-health.ts';
import { redisRateLimiter } from './infra/rate-limit/redis-rate-limiter.ts';
import { type BucketPolicy, memoryRateLimiter, type RateLimiter } from './infra/rate-limit/token-bucket.ts';
import { vroomOptimiser } from './infra/routing/vroom-optimiser.ts';
import { fileSmsSender } from './infra/sms/file-sms-sender.ts';
import { createSmsSender } from './infra/sms/index.ts';
import { tracing } from './infra/telemetry/tracing.ts';
import { PLAY_TEST_SCENARIO_SPEC } from './jobs/job-names.ts';
import { subscribers } from './outbox-subscribers.ts';

/** Sign-in attempts: 10 per 15 minutes, per account and per address. */
const SIGN_IN_POLICY: BucketPolicy = { burst: 10, perSecond: 10 / (15 * 60) };
/** Password-reset e-mails: 5 an hour, per e-mail address and per client address. */
const RESET_MAIL_POLICY: BucketPolicy = { burst: 5, perSecond: 5 / 3600 };
/** Team invitations: 20 at once, then 20 a day, per brand and per client address. */
const INVITATION_POLICY: BucketPolicy = { burst: 20, perSecond: 20 / 86_400 };
/** Invitations of one address by one brand: 3 at once, then 3 an hour. */
const INVITED_ADDRESS_POLICY: BucketPolicy = { burst: 3, perSecond: 3 / 3600 };

export type { Clock };

/** Upkeep of the job queue that the worker's periodic jobs run. */
interface JobQueueUpkeep {
  /** Jobs held by a worker that died, run again (src/jobs/recover-stalled-jobs.ts). */
  recoverStalled(tasks: readonly string[], graceMs: number): Promise<number>;
  /** The heartbeats of this process's job runners, and the jobs of those that died (src/worker.ts). */
  heartbeats: Pick<JobQueue, 'beat' | 'forgetWorkers' | 'unlockDeadWorkers'>;
  /** The per-order queues of the shop connectors whose order is finished (jobs/cleanup-order-queues.ts). */
  deleteFinishedOrderQueues(): Promise<void>;
}

/** A cache that polls the database for changes made by other instances (started with the app). */
interface Watcher {
  startWatching(): Promise<void>;
  stopWatching(): void;
}

/**
 * Everything the composition root wires: the surfaces (http/, jobs/, cli/) take from it only the
 * members they use (each declares its context as a `Pick` of this).
 */
/** Each platform's connector is there too, under its identifier (`deps.<platform>`; null when off). */
export interface Deps extends CoreDeps, WiredConnectors {
  /** One transaction on the stores: the public API's writes that go with a key or a test scenario. */
  transact: Transact;
  /** The account area's test-data switch and its "delete all test data" (test mode). */
  testData: TestData;
  accounts: AccountService;
  accountKeys: KeyManagement;
  team: TeamManagement;
  mailer: Mailer;
  signInLimiter: RateLimiter;
  resetLimiter: RateLimiter;
  /** The team page's invitations: per brand and client address, per invited address (closed with the account area). */
  invitationLimits: { invitations: RateLimiter; perAddress: RateLimiter };
  /** Whether the rate limits' Redis answers (REDIS_URL): readiness says "degraded" while they fail open. */
  redisHealth: RedisHealth;
  /** The operator's couriers and their sessions (`/courier`, `dlv couriers`). */
  couriers: CourierService;
  /** Operators' sign-in, second factor and sessions (the operations API's now, the console's next). */
  operatorSessions: OperatorSessions;
  /** The day's rounds: planning by sort code, the operator's edits, the courier's day. */
  rounds: RoundService;
  /** Hubs, vehicles and couriers' shifts (issue 37). */
  fleet: FleetService;
  rates: RateService;
  orders: OrderService;
  /** Where delivery addresses are (geocoder, cache, deliveries, postcodes) and what is wrong with them. */
  places: PlaceService;
  /** The shared cache of places (address_points): the check_addresses job drops its expired rows. */
  placeStore: PlaceStore;
  /** `POST /addresses/validate`. */
  addressValidator: AddressValidator;
  /** The address checks a creation could not wait for (the check_addresses job). */
  addressChecks: AddressChecks;
  /** Travel times between points for a vehicle: OSRM when OSRM_URL is set, else estimates (SPEC §11). */
  travelTimes: TravelTimes;
  /** Each delivery's estimated arrival and window on its round; the couriers' shared positions. */
  arrivals: ArrivalTimes;
  pickups: PickupService;
  /** Proof of delivery: signed file URLs, the proof members of orders, the files' retention. */
  proofs: ProofService;
  /** Re-encodes proof photos and signatures (sharp, loaded at the first image). */
  images: ImageCodec;
  /** Door scans with their proof's files (courier app's deliveries, the ops API's proof). */
  deliveries: ProofDeliveries;
  /** Couriers' scans applied to the orders (domain/scans). */
  scans: ScanService;
  /** Test mode: test orders moved through the street's steps on demand (domain/test-mode). */
  simulation: SimulationService;
  links: OrderLinks;
  /** What each brand tells its recipients and how it looks (logo, colour): the account area sets it. */
  recipientSettings: RecipientSettingsService;
  invoices: InvoiceService;
  /** CO₂e per delivered order, its recompute and the brands' monthly statements (SPEC §14). */
  emissions: EmissionService;
  /** Issued documents to the e-invoicing platform (EINVOICE_PLATFORM) and their statuses back. */
  einvoices: EInvoiceTransmissionService;
  /** Labels of the brands' orders (PDF, ZPL) and the operator's sort codes. */
  labels: LabelService;
  subscriptions: WebhookSubscriptions;
  webhookDeliveries: WebhookDeliveryService;
  idempotentRequests: IdempotentRequests;
  /** Every brand's shop links (all platforms): list, health, problems, disconnect. */
  connections: ConnectionsService;
  /** Which shops and brands have active links, cached (rates at checkout, the outbox). */
  connectorDirectory: ConnectorDirectory;
  /** The shop platforms that are on (src/connectors/registry.ts): receivers, start-up summary. */
  connectors: readonly ActiveConnector[];
  /** `dlv connectors resync`: each platform that can read its orders back plugs in here. */
  resync: ConnectorResync;
  /** The console's actions on a shop link with sync problems (src/connectors/link-attention.ts). */
  shopLinks: ShopLinkAttention;
  jobQueue: JobQueueUpkeep;
  /** Caches that poll the database for changes made by other instances (started with the app). */
  watchers: readonly Watcher[];
  cursors: { ready(): Promise<CursorCodec> };
  /** The key of the opt-out list and unsubscribe links (OPT_OUT_KEY): checked and applied at start-up. */
  optOutKey: OptOutKeyring;
  /**
   * The settings' store under the service above, saving through which is seen by the notifications'
   * `listens` at once here (tests and jobs that need no validation).
   */
  recipientSettingsStore: RecipientSettingsRepository;
  /** Recipients who asked for nothing more, by address or by its digest. */
  recipientOptOuts: OptOuts & OptOutsByKey;
  /** The recipients' notifications: the outbox subscriber's answer, the job, an order's messages. */
  recipientNotifications: RecipientNotifications;
  /** The unsubscribe links (`/unsubscribe/{token}`). */
  unsubscribes: Unsubscribes;
  recipientMailer: RecipientMailer;
  /** Twilio when TWILIO_* are set, else files under DATA_DIR/sms (decision 0007). */
  smsSender: SmsSender;
  /** Twilio's delivery reports applied to the SMS notifications (`POST /sms/twilio/status`). */
  smsDeliveryReports: SmsDeliveryReports;
  /** The recipients' texts to the service's number: STOP / START (`POST /sms/twilio/inbound`). */
  smsReplies: SmsReplies;
  /** The tracking page's self-service: one-time codes, the recipient's choices, another day. */
  selfService: SelfService;
  /** The per-message logs' retention (MESSAGE_LOG_RETENTION_DAYS): the hourly purge. */
  messageLogs: MessageLogRetention;
  /** The recipients' personal data: its retention (anonymisation) and erasure on request. */
  recipientData: RecipientDataService;
  /** The audit trail's listing and exports (`dlv audit`, `GET /ops/v1/audit`), and its months' upkeep. */
  audit: AuditLog;
}

/**
 * The composition root: stores (db/), outside systems (infra/) and services (domain/) wired once,
 * from the config and one pool. Services get stores and a transaction runner, never the pool.
 */
export function createDeps(
  config: Config,
  pool: Pool,
  clock: Clock = systemClock,
  options: {
    mailer?: Mailer;
    log?: (message: string) => void;
    /** What the metrics watch from inside the services (src/observability.ts); nothing by default. */
    observers?: {
      webhookDeliveries?: DeliveryObserver;
      scans?: ScanObserver;
      places?: PlacesObserver;
      routing?: RoutingObserver;
    };
    /** The recipients' SMS provider (tests: one recording what it is given); else chosen by config. */
    smsSender?: SmsSender;
    /** Where test orders' messages go (tests watch it); else files under DATA_DIR. */
    testOutbox?: { mailer: RecipientMailer; sms: SmsSender };
    recipientMailer?: RecipientMailer;
    /** The e-invoicing platform (tests: one against a fake); else chosen by config. */
    einvoicePlatform?: EInvoicePlatform;
  } = {},
): Deps {
  // The services that need no connector, outbox, mail nor document (src/core-deps.ts): a `dlv` command
  // of the brands, keys, grids or webhooks groups wires only those.
  const core = createCoreDeps(config, pool, clock);
  const { stores, transact, destinations, listeners, brands, authenticator, apiKeys, grids } = core;
  // Shops' addresses are the brands' choice: the same SSRF guard as webhook endpoints, in shop terms.
  const shopPolicy = {
    allowInsecure: config.connectorsAllowInsecure,
    publicRule: 'the shop must be reachable at a public address',
  };
  const shopGuard = destinationGuard(shopPolicy);
  // Every outbound call goes through one of these (src/infra/http/outbound-client.ts): the guard is
  // the connection's own DNS resolution; a platform's own hosts get theirs (ConnectorContext.requester).
  const webhookHttp = outboundClient({ allowInsecure: config.webhooksAllowInsecure });
  const shopHttp = outboundClient(shopPolicy);

  const rates = rateService(grids, clock);
  // Loaded once (service.ts does it at start-up), then kept: no key lookup per list request.
  const cursors = lazyCursorCodec(async () =>
    config.cursorSecret
      ? keyFromSecret(config.cursorSecret)
      : serverSecretsRepository(pool).getOrCreate('cursor_key'),
  );

  const directory = connectorDirectory(stores.connections);
  // The order JSON's links (tracking_url), the shops' callbacks and the recipients' messages point
  // at this deployment: PUBLIC_BASE_URL, else the listen address.
  const baseUrl = config.publicBaseUrl ?? `http://${config.host}:${config.port}`;
  // stderr by default: the CLI keeps stdout for its one result.
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const recipientSettingsStore = recipientSettingsRepository(pool);
  const optOutKey = optOutKeyring(config, pool);
  const keys = addressKeys(optOutKey.key);
  const recipientOptOuts = recipientOptOutsRepository(pool, keys);
  const tokens = unsubscribeTokens(() => serverSecretsRepository(pool).getOrCreate('unsubscribe_key'), keys);
  const recipientMailer =
    options.recipientMailer ??
    createRecipientMailer({
      smtpUrl: config.smtpUrl,
      mailFrom: config.mailFrom,
      dkim: config.dkim,
      dropDir: path.join(config.dataDir, 'mail'),
      log,
    });
  const smsSender =
    options.smsSender ??
    createSmsSender({
      twilio: config.twilio,
      dataDir: config.dataDir,
      statusCallbackUrl: `${baseUrl}${SMS_STATUS_PATH}`,
      optOuts: recipientOptOuts,
      log,
      clock,
    });
  // Test orders' messages (test mode): the development outbox, whatever SMTP or SMS provider is set.
  const outboxForTests = testOutbox({
    mailer: createRecipientMailer({
      smtpUrl: null,
      mailFrom: config.mailFrom,
      dkim: null,
      dropDir: path.join(config.dataDir, 'mail'),
      log,
    }),
    sms: fileSmsSender({ dropDir: path.join(config.dataDir, 'sms'), log, clock }),
  });
  const notifications = recipientNotifications({
    testOutbox: options.testOutbox ?? outboxForTests,
    settings: recipientSettingsStore,
    store: recipientNotificationsRepository(pool),
    audit: stores.audit,
    facts: notificationFactsRepository(pool),
    optOuts: recipientOptOuts,
    mailer: recipientMailer,
    sms: smsSender,
    tokens,
    baseUrl,
    carrierName: config.carrierName,
    smsFrom: config.smsFrom,
    // Built below (it writes events through the outbox these notifications subscribe to).
    arrivalWindow: async (orderId) => {
      const arrival = await arrivals.arrivalOf(orderId);
      return arrival ? { from: arrival.windowStart, to: arrival.windowEnd } : null;
    },
  });
  // Saved here, seen here at once; other processes see it within the cache's 10 s.
  const recipientSettings: RecipientSettingsRepository = {
    ...recipientSettingsStore,
    save: async (settings) => {
      const saved = await recipientSettingsStore.save(settings);
      notifications.forget(settings.brandId);
      return saved;
    },
    setLogo: async (brandId, png) => {
      const saved = await recipientSettingsStore.setLogo(brandId, png);
      notifications.forget(brandId);
      return saved;
    },
  };
  const events = outbox(
    subscribers({
      webhooks: listeners,
      recipients: notifications,
      shops: connectorsOn(config).map((c) => ({
        platform: c.platform,
        ...c.syncBack,
        hasActiveLink: (brandId: string) => directory.hasActiveLink(c.platform, brandId),
      })),
    }),
    { originOf: (trackingRef) => stores.connectorSync.platformOfOrder(trackingRef) },
  );
  const links = orderLinks(baseUrl);
  // Places (docs/places.md): no geocoder nor router unless configured, so `npm start` calls nobody.
  const placeStore = addressPointsRepository(pool);
  const known = knownAddresses(placeStore);
  const placesObserver = options.observers?.places;
  const places = placeService({
    geocoder: config.geocoder
      ? banGeocoder({
          baseUrl: config.geocoder.url,
          timeoutMs: config.geocoder.timeoutMs,
          ratePerSecond: config.geocoder.ratePerSecond,
          log,
          now: () => clock().getTime(),
        })
      : null,
    store: placeStore,
    known,
    clock,
    budgetMs: config.geocoder?.budgetMs ?? 0,
    timeoutMs: config.geocoder?.timeoutMs ?? 0,
    observer: placesObserver,
    log,
  });
  const travelTimes = config.router
    ? osrmTravelTimes({
        baseUrl: config.router.url,
        profiles: config.router.profiles,
        timeoutMs: config.router.timeoutMs,
        log,
        onFallback: (reason) => placesObserver?.travelTimesFallback(reason),
      })
    : estimatedTravelTimes;
  const emissions = emissionService({
    rounds: roundDistancesRepository(pool),
    store: emissionsRepository(pool),
    seller: config.seller,
    settings: config.emissions,
    driven: { rounds: drivenRoundsRepository(pool), travelTimes, clock },
  });
  const orders = orderService({
    stores,
    places,
    transact,
    grids,
    outbox: events,
    clock,
    cursors,
    links,
    emissions,
  });
  // The round optimiser (docs/planning.md): VROOM when configured, the in-process solver otherwise
  // and as its fallback.
  const inProcess = createInProcessOptimiser();
  const roundOptimiser = config.optimiser.url
    ? vroomOptimiser({
        baseUrl: config.optimiser.url,
        timeoutMs: config.optimiser.timeoutMs,
        fallback: inProcess,
        log,
        onFallback: (reason) => options.observers?.routing?.optimiserFallback(reason),
      })
    : inProcess;
  const pickups = pickupService({ stores, transact, orders, outbox: events, clock });
  // Proof files: written by the proofs, deleted by their retention and by a recipient's erasure.
  const objects = createObjectStore(config);
  const proofs = proofService({
    attempts: deliveryAttemptsRepository(pool),
    objects,
    urls: proofUrlSigner(() => serverSecretsRepository(pool).getOrCreate('proof_url_key'), clock),
    clock,
    baseUrl,
  });
  const images = sharpCodec();
  // order.delivered / order.delivery_failed carry the proof with 7-day URLs (decision 0006).
  const doorEventMembers = async (orderId: number, attempt: DoorAttempt) => ({
    ...(await proofs.membersOf(
      [...(await proofs.attemptsOf(orderId)), { ...attempt, filesErasedAt: null }],
      'webhook',
    )),
  });
  const arrivals = arrivalTimes({
    store: arrivalsRepository(pool),
    orders: stores.orders,
    travelTimes,
    outbox: events,
    links,
    clock,
    settings: config.arrivals,
    onError: (err, roundId) =>
      log(
        `arrival times of round ${roundId} not estimated: ${err instanceof Error ? err.message : String(err)}`,
      ),
  });
  const scans = scanService({
    stores,
    orders,
    pickups,
    clock,
    // Each loading and door scan moves its round's arrival times (docs/arrival-times.md).
    progressed: (progress) => arrivals.afterScans(progress),
    observer: options.observers?.scans,
    // Where a parcel was delivered teaches its address its point (decision 0008).
    learnPlace: (order, point) =>
      order.deliveryAddress
        ? places.learnFromDelivery(
            order.deliveryAddress,
            { lat: point.latitude, lng: point.longitude },
            deliveryLocationOf(order),
          )
        : Promise.resolve(false),
    doorEventMembers,
  });
  // Test mode: a test order moved as a courier's scans would move it (same service, same events).
  const simulation = simulationService({
    orders,
    attemptRow: (attempt) => stores.scans.attemptWithMove(attempt),
    doorEventMembers,
    cancelByCarrier: (ref, note) =>
      orders.setStatus(ref, 'cancelled', note, systemAuthor(PLAY_TEST_SCENARIO_SPEC.name)),
    enqueueStep: async (p, runAt, queue = jobQueueOn(pool)) => {
      await queue.add(
        PLAY_TEST_SCENARIO_SPEC.name,
        {
          v: PLAY_TEST_SCENARIO_SPEC.payloadVersion,
          tracking_ref: p.trackingRef,
          brand_id: p.brandId,
          scenario: p.scenario,
          step: String(p.step),
        },
        { runAt },
      );
    },
    stepMs: config.testModeStepMs,
    clock,
  });
  const invoices = invoiceService({
    stores,
    transact,
    outbox: events,
    brands,
    clock,
    seller: config.seller,
    vatOnDebits: config.einvoicing.vatOnDebits,
    cursors,
  });
  const einvoices = einvoiceTransmissionService({
    stores,
    transact,
    outbox: events,
    invoices,
    platform: options.einvoicePlatform ?? createEInvoicePlatform(config.einvoicing, { log, clock }),
    clock,
  });
  const labels = labelService({
    store: labelsRepository(pool),
    transact: transactWith(pool, (client) => ({
      sortCodes: labelsRepository(client),
      audit: auditRepository(client),
    })),
    outbox: events,
    clock,
    links,
    carrierName: config.carrierName,
    brandName: async (brandId) => (await brands.get(brandId)).name,
  });
  const subscriptions = webhookSubscriptions({
    stores,
    transact,
    destinations,
    clock,
    onSubscriptionsChanged: listeners.forget,
  });
  const webhookDeliveries = webhookDeliveryService({
    stores,
    clock,
    send: (input) => {
      // Each attempt its own trace when tracing is on: the dispatcher sends outside any job.
      const traces = tracing();
      return traces
        ? traces.inSpan('webhook attempt', {}, () => sendWebhook(webhookHttp, input), { root: true })
        : sendWebhook(webhookHttp, input);
    },
    observer: options.observers?.webhookDeliveries,
  });
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dropDir: path.join(config.dataDir, 'mail'),
      log,
    });
  const redis = redisHealth();
  // Made on first use: a `dlv` command must not open a Redis connection it never needs.
  const lazyLimiter = (policy: BucketPolicy): RateLimiter => {
    let limiter: RateLimiter | null = null;
    const made = () =>
      (limiter ??= config.redisUrl
        ? redisRateLimiter(config.redisUrl, policy, redis)
        : memoryRateLimiter(policy));
    return {
      take: (key) => made().take(key),
      refund: (key) => made().refund(key),
      close: async () => {
        await limiter?.close();
      },
    };
  };
  const signInLimiter = lazyLimiter(SIGN_IN_POLICY);
  const resetLimiter = lazyLimiter(RESET_MAIL_POLICY);
  const invitationLimits = {
    invitations: lazyLimiter(INVITATION_POLICY),
    perAddress: lazyLimiter(INVITED_ADDRESS_POLICY),
  };
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
  const couriers = courierService({ couriers: stores.couriers, transact, signInLimiter, clock });
  const operatorSignIn = operatorSessions({
    operators: stores.operators,
    transact,
    signInLimiter,
    // OPERATOR_TOTP_KEY, else a key generated once in server_secrets (loaded on first use).
    sealer: totpSealer(
      async () => config.operatorTotpKey ?? serverSecretsRepository(pool).getOrCreate('operator_totp_key'),
    ),
    clock,
    issuer: config.carrierName,
    audit: core.operatorAudit,
  });
  const team = teamManagement({
    users: stores.users,
    transact,
    accounts,
    clock,
    limits: invitationLimits,
  });
  // Shop credentials: CONNECTOR_SECRET_KEY; in development only (config.ts enforces it), a key kept
  // in the database. Loaded on first use.
  const cipher = credentialCipher(
    async () => config.connectorSecretKey ?? serverSecretsRepository(pool).getOrCreate('connector_key'),
  );
  // Each shop platform of the registry (src/connectors/registry.ts), wired once; the connections
  // service unlinks through them.
  let connectors: WiredRegistry | null = null;
  const connections = connectionsService({
    stores,
    cipher,
    clock,
    onChanged: directory.forget,
    remoteCleanup: remoteCleanups(() => connectors?.byPlatform ?? {}),
    extraStatuses: EXTRA_STATUSES,
  });
  connectors = wireConnectors({
    config,
    stores,
    transact,
    orders,
    rates,
    connections,
    directory,
    cipher,
    clock,
    baseUrl,
    shopGuard,
    shopRequest: jsonRequester(shopHttp),
    requester: (publicRule) =>
      jsonRequester(outboundClient({ allowInsecure: config.connectorsAllowInsecure, publicRule })),
    // A published service keeps no shop credentials under a key stored beside them (config.ts).
    credentialRefusal:
      config.connectorSecretKey === null && !isDevelopment(config.publicBaseUrl)
        ? 'Shop credentials cannot be stored: set CONNECTOR_SECRET_KEY (`openssl rand -hex 32`).'
        : null,
  });
  const self = selfService({
    transact: selfServiceTransact(pool),
    stores: selfServiceStoresOn(pool),
    outbox: events,
    links,
    clock,
    codeKey: () => serverSecretsRepository(pool).getOrCreate('recipient_code_key'),
    // RECIPIENT_DATA_KEY, else a key generated once in server_secrets (loaded on first use).
    sealer: recipientDataSealer(
      async () => config.recipientDataKey ?? serverSecretsRepository(pool).getOrCreate('recipient_data_key'),
    ),
    mailer: recipientMailer,
    // Twilio when configured, else the SMS files of DATA_DIR/sms: a code by SMS is offered either way.
    sms: { sender: smsSender, from: config.smsFrom ?? '' },
  });
  const resync = connectorResync({ connections, clock, resyncers: connectors.resyncers });
  return {
    config,
    pool,
    clock,
    transact,
    brands,
    apiKeys,
    authenticator,
    grids,
    webhooks: core.webhooks,
    webhookRequests: core.webhookRequests,
    testData: testDataService({ testTwinId: brands.testTwinId, transact }),
    accounts,
    accountKeys,
    team,
    mailer,
    signInLimiter,
    resetLimiter,
    invitationLimits,
    redisHealth: redis,
    couriers,
    operators: core.operators,
    operatorSessions: operatorSignIn,
    opsTokens: core.opsTokens,
    // The recipients' choices in clear: in a courier's day (that courier's stops only) and the
    // operator's rounds; never to a brand.
    rounds: roundService({
      transact,
      stores,
      clock,
      recipientChoices: self.choicesForCourier,
      distances: (points, profile) => arrivals.distances(points, profile),
      etas: (refs) => arrivals.etasOf(refs),
      optimiser: roundOptimiser,
      travelTimes,
      solveOptions: { timeLimitMs: config.optimiser.timeLimitMs },
    }),
    fleet: fleetService({ transact, stores, clock }),
    rates,
    orders,
    places,
    placeStore,
    addressValidator: addressValidator({ places, sortCodes: () => labels.sortCodes() }),
    addressChecks: addressChecks({ stores, places, outbox: events, clock, links }),
    travelTimes,
    arrivals,
    pickups,
    proofs,
    images,
    deliveries: proofDeliveries({ scans, proofs, images }),
    scans,
    simulation,
    links,
    recipientSettings: recipientSettingsService({
      settings: recipientSettings,
      transact: transactWith(pool, (client) => ({
        settings: recipientSettingsRepository(client),
        audit: auditRepository(client),
      })),
      onChanged: notifications.forget,
      codec: sharpLogoCodec(),
    }),
    invoices,
    emissions,
    einvoices,
    labels,
    subscriptions,
    webhookDeliveries,
    idempotentRequests: idempotentRequests({ stores, transact }),
    /** Every brand's shop links (all platforms): list, health, problems, disconnect. */
    connections,
    /** Which shops and brands have active links, cached (rates at checkout, the outbox). */
    connectorDirectory: directory,
    /** The shop platforms that are on (src/connectors/registry.ts): receivers, start-up summary. */
    connectors: connectors.active,
    /** Each platform's connector under its identifier, null when off: jobs, CLI, account area. */
    ...connectors.byPlatform,
    /** `dlv connectors resync`: each platform that can read its orders back plugs in here. */
    resync,
    /** The console's actions on a shop link with sync problems: sync again, tell the brand. */
    shopLinks: shopLinkAttention({
      connections,
      resync,
      users: stores.users,
      mail: accountMail(mailer, config.publicBaseUrl ?? `http://${config.host}:${config.port}`),
      audit: stores.audit,
    }),
    /** Jobs held by a worker that died, run again (src/jobs/recover-stalled-jobs.ts). */
    jobQueue: {
      recoverStalled: (tasks: readonly string[], graceMs: number) =>
        stores.jobQueue.unlockStalled(tasks, graceMs),
      heartbeats: stores.jobQueue,
      /** The per-order queues of the shop connectors whose order is finished (jobs/cleanup-order-queues.ts). */
      deleteFinishedOrderQueues: async () => {
        for (const prefix of ORDER_QUEUE_PREFIXES)
          await stores.jobQueue.deleteFinishedOrderQueues(prefix, TERMINAL_STATUSES);
      },
    },
    /** Caches that poll the database for changes made by other instances (started with the app). */
    watchers: [grids, listeners, directory, known],
    cursors,
    optOutKey,
    recipientSettingsStore: recipientSettings,
    recipientOptOuts,
    recipientNotifications: notifications,
    unsubscribes: unsubscribes({ tokens, optOuts: recipientOptOuts }),
    recipientMailer,
    smsSender,
    smsDeliveryReports: smsDeliveryReportsRepository(pool),
    smsReplies: smsReplies({ optOuts: recipientOptOuts, optIns: smsOptInsRepository(pool, keys) }),
    selfService: self,
    messageLogs: messageLogRetention({
      store: messageLogsRepository(pool),
      clock,
      days: config.retention.messageLogDays,
    }),
    recipientData: recipientDataService({
      store: recipientDataRepository(pool),
      transact: privacyTransact(pool, keys),
      objects,
      clock,
      days: config.retention.recipientDataDays,
    }),
    audit: auditLog({
      store: stores.audit,
      transact,
      cursors,
      clock,
      retentionDays: config.retention.auditDays,
    }),
  };
}
