import { createPrivateKey } from 'node:crypto';
import path from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parsePostalAddress } from './domain/einvoicing/postal-address.ts';
import {
  ALLOCATION_RULES,
  DEFAULT_EMISSION_SETTINGS,
  type EmissionSettings,
  POWERED_KINDS,
} from './domain/emissions/emission-settings.ts';
import { DEFAULT_SELLER, formatSiren, frenchVatKey, type SellerIdentity } from './domain/invoices/seller.ts';
import { isInIleDeFrance } from './domain/places/region.ts';
import { isVehicleProfile, VEHICLE_PROFILES, type VehicleProfile } from './domain/places/vehicles.ts';

/**
 * Every setting of the service, read from the environment once at start-up and passed down.
 * Nothing else in the code base reads process.env, so tests build a Config by hand.
 */
export interface Config {
  port: number;
  host: string;
  /** When null, an embedded PostgreSQL is started in `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  /** DATA_DIR left unset: as root, the embedded cluster may then live in `embeddedPgRootDir`. */
  dataDirIsDefault: boolean;
  /**
   * As root (the cluster runs as the `postgres` user), where the binaries are copied when that user
   * cannot reach them, and where the cluster of a default DATA_DIR it cannot reach lives.
   */
  embeddedPgRootDir: string;
  redisUrl: string | null;
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  opsToken: string | null;
  logLevel: string;
  publicBaseUrl: string | null;
  /** How long a verified API key is trusted from memory; bounded so revocations apply within 5 s. */
  authCacheTtlMs: number;
  webhooksAllowInsecure: boolean;
  /** Runs the job worker inside the API process (the default for `npm start`). */
  runWorker: boolean;
  /** `api` and `all` apply the migrations before serving; false: a one-shot `migrate` job does it first. */
  migrateOnStart: boolean;
  /** Connections of the API's pool (`api` mode; `all` adds the worker's). */
  databasePoolSize: number;
  /** Jobs a worker runs at once; its pool holds at least this + 2 (the queue's listener and cron). */
  workerConcurrency: number;
  /** PostgreSQL's statement_timeout on every connection (0: none); migrations run without it. */
  databaseStatementTimeoutMs: number;
  /** After SIGTERM: /readyz fails at once, the server keeps serving this long, then closes. */
  shutdownDrainMs: number;
  /** TEST_MODE_STEP_MS: between two steps of a test order's scenario (docs/test-mode.md). */
  testModeStepMs: number;
  /**
   * How each worker process sends webhooks (docs/decisions/0005): attempts in flight per endpoint
   * and in all, and the circuit breaker that pauses an endpoint after consecutive failures.
   */
  webhookDelivery: {
    perEndpoint: number;
    maxInFlight: number;
    breaker: { failures: number; pauseMs: number };
  };
  /**
   * Keys the lists' cursors (CURSOR_SECRET); null: a key generated once and kept in the database.
   * Every instance must have the same, or a cursor from one is refused by another.
   */
  cursorSecret: string | null;
  /** The issuer printed on invoices; the placeholder until SELLER_* are set. */
  seller: Readonly<SellerIdentity>;
  sellerIsPlaceholder: boolean;
  /** SMTP server of the account e-mails; null: written to `DATA_DIR/mail` and their links logged. */
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * DKIM signing of the recipients' e-mails (DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY: all or
   * none); null: unsigned (the SMTP relay may sign them).
   */
  dkim: { domain: string; selector: string; privateKey: string } | null;
  /** The service's number the recipients' SMS come from (SMS_FROM, E.164), so they can answer STOP. */
  smsFrom: string | null;
  /** `open`: anyone may create a brand's account at /account/sign-up; `invite`: the operator invites. */
  accountSignup: 'open' | 'invite';
  /**
   * Which proxies' X-Forwarded-For to believe for the caller's address (rate limits, sign-in
   * limits, key history): false (none, the default), a hop count, or addresses/CIDRs.
   */
  trustProxy: boolean | number | string[];
  /**
   * Deadlines of the listening server against slow clients (slowloris): a request's headers, then
   * the whole request with its body, must arrive within these (else 408 and the connection closed);
   * an idle kept-alive connection is closed after `keepAliveTimeoutMs`.
   */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold at once (0: no cap); proxies of TRUST_PROXY are exempt. */
  maxConnectionsPerAddress: number;
  /** The Shopify app (SHOPIFY_API_KEY and SHOPIFY_API_SECRET); null: the connector is off. */
  shopify: ShopifyAppConfig | null;
  /**
   * AES-256 key encrypting shop credentials at rest (CONNECTOR_SECRET_KEY, 64 hex characters); null in
   * development only, where a key generated once is kept in the database instead.
   */
  connectorSecretKey: Buffer | null;
  /**
   * AES-256 key sealing what recipients tell couriers (door codes, safe place) at rest
   * (RECIPIENT_DATA_KEY, 64 hex characters); null: a key generated once and kept in server_secrets.
   */
  recipientDataKey: Buffer | null;
  /**
   * AES-256 key sealing the operators' TOTP secrets at rest (OPERATOR_TOTP_KEY, 64 hex characters);
   * null: a key generated once and kept in server_secrets.
   */
  operatorTotpKey: Buffer | null;
  /**
   * HMAC key of the recipients' opt-out list and unsubscribe links (OPT_OUT_KEY, 64 hex characters):
   * they hold addresses only keyed with it. Null: a key generated once and kept in server_secrets,
   * refused at the service's start-up when PUBLIC_BASE_URL is https (src/db/opt-out-key.ts).
   */
  optOutKey: Buffer | null;
  /**
   * WooCommerce (and other) shops at http:// or loopback addresses (CONNECTORS_ALLOW_INSECURE): local
   * development and tests only; otherwise a shop's address must be https and public (the SSRF guard).
   */
  connectorsAllowInsecure: boolean;
  /** The carrier's name (CARRIER_NAME): checkout, notes, tracking entries, labels. */
  carrierName: string;
  /**
   * The WooCommerce bridge needs no app credentials (each shop gives its key pair): on, unless the
   * service is published (https) without CONNECTOR_SECRET_KEY to encrypt those keys.
   */
  woocommerce: boolean;
  /** `/metrics` on a port of its own, without authentication (METRICS_PORT); null: not served so. */
  metricsPort: number | null;
  /** Bearer token of `/metrics` on the API's port (METRICS_TOKEN); null: not served there. */
  metricsToken: string | null;
  /** OTLP/HTTP collector of the traces (OTEL_EXPORTER_OTLP_ENDPOINT); null: no tracing. */
  otlpEndpoint: string | null;
  /** `service.name` of the traces (OTEL_SERVICE_NAME); null: `delivery-orders-api-<mode>`. */
  otelServiceName: string | null;
  /** Where proof-of-delivery files go (OBJECT_STORE): `fs` (DATA_DIR/objects, the default) or `s3`. */
  objectStore: 'fs' | 's3';
  /** The S3 bucket (S3_*) when OBJECT_STORE=s3; null otherwise. */
  s3: S3Config | null;
  /** Twilio Programmable Messaging (TWILIO_*, SMS_FROM); null: SMS are written to `DATA_DIR/sms`. */
  twilio: TwilioConfig | null;
  /**
   * How long data is kept (docs/security.md): the per-message logs (webhook events, deliveries and
   * attempts, recipient notifications, shops' webhooks, webhook requests) after they were written,
   * and the recipient's personal data on an order after it ended (delivered, returned, cancelled).
   */
  retention: { messageLogDays: number; recipientDataDays: number; auditDays: number };
  /** E-invoicing (docs/einvoicing.md): the VAT option and the platform the documents go to. */
  einvoicing: EInvoicingConfig;
  /**
   * The geocoder (GEOCODER_*: the Base Adresse Nationale's API or a self-hosted addok); null (the
   * default): no outside call, addresses placed at their postcode (docs/places.md).
   */
  geocoder: GeocoderConfig | null;
  /** The router of travel times (OSRM_*); null (the default): great-circle estimates. */
  router: RouterConfig | null;
  /** Arrival times (ARRIVAL_*, docs/arrival-times.md). */
  arrivals: ArrivalsConfig;
  /** The round optimiser (docs/planning.md): a VROOM (vroom-express) when `url` is set, else in-process. */
  optimiser: OptimiserConfig;
  /** The console's map (CONSOLE_MAP_*, docs/console.md#map). */
  consoleMap: ConsoleMapConfig;
  /** The CO₂e's factors with their sources and the allocation rule (EMISSION_*, docs/emissions.md). */
  emissions: EmissionSettings;
}

interface ConsoleMapConfig {
  /**
   * The tiles' URL template (`{z}`, `{x}`, `{y}`, optionally `{s}` and `{r}`): a path on the
   * console's own origin (a tile server behind the same proxy) or an http(s) URL, whose origin the
   * map page's CSP then allows for images. Null: the map draws on a plain background and asks for
   * no tile at all.
   */
  tileUrl: string | null;
  /** The tiles' attribution, plain text (the tile provider's licence usually requires it). */
  attribution: string | null;
}

interface ArrivalsConfig {
  /** Seconds a courier spends at each delivery stop. */
  serviceSeconds: number;
  /** Where rounds leave from; null: the first stop's arrival is the departure. */
  hub: { lat: number; lng: number } | null;
  /** The vehicle rounds' travel times are estimated for. */
  vehicle: VehicleProfile;
}

interface OptimiserConfig {
  /** vroom-express's base URL (ROUTE_OPTIMISER_URL); null: the in-process solver. */
  url: string | null;
  /** One request to VROOM; past it, the in-process solver plans instead. */
  timeoutMs: number;
  /** How long the in-process solver searches a day's plan (ROUND_PLAN_TIME_LIMIT_MS). */
  timeLimitMs: number;
}

interface GeocoderConfig {
  /** `https://api-adresse.data.gouv.fr` or an addok's base URL; `/search/` is appended. */
  url: string;
  /** One request's timeout (the job and the validate route wait this long), ms. */
  timeoutMs: number;
  /** Requests a second this process sends at most (BAN allows 50 per client address). */
  ratePerSecond: number;
  /** How long an order's creation waits for the geocoder before going on with `address_check_pending`, ms. */
  budgetMs: number;
}

interface RouterConfig {
  /** An osrm-routed's base URL; `/table/v1/{profile}/…` is appended. */
  url: string;
  timeoutMs: number;
  /** The vehicle profiles it routes (its data's); the others are estimated. */
  profiles: VehicleProfile[];
}

export interface EInvoicingConfig {
  /**
   * EINVOICE_VAT_ON_DEBITS: the operator opted to pay VAT on debits (at invoicing): the invoices say
   * so and no payment data is reported; false (the default for services): VAT is due when paid, and
   * each payment is reported through the platform.
   */
  vatOnDebits: boolean;
  /** `directory` (the default: DATA_DIR/einvoices) or an AFNOR XP Z12-013 flow API. */
  platform: { kind: 'directory'; dir: string } | ({ kind: 'afnor' } & AfnorPlatformConfig);
}

export interface AfnorPlatformConfig {
  /** The Flow Service's base URL (…/v1/flows is appended), no trailing slash. */
  flowUrl: string;
  /** The OAuth 2.0 token endpoint (client credentials). */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface TwilioConfig {
  /** `AC` + 32 hex: the account the messages are sent from (HTTP Basic user). */
  accountSid: string;
  /** Basic password of the API, and the key Twilio signs its webhooks with (X-Twilio-Signature). */
  authToken: string;
  /** The service's number (E.164): recipients answer STOP to it. */
  from: string;
  /** `https://api.twilio.com`; tests point it at the fake on the loopback. No trailing slash. */
  apiBase: string;
}

export interface S3Config {
  /** null: AWS's own endpoint for the region. */
  endpoint: string | null;
  bucket: string;
  region: string;
  /** null: the AWS SDK's default chain (environment, instance role…). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
}

export interface ShopifyAppConfig {
  apiKey: string;
  apiSecret: string;
  /** `https://{shop}` in production; tests point it at a fake Shopify on the loopback. */
  adminOriginTemplate: string;
  /** The carrier's name shown at checkout and in the shop's tracking information. */
  carrierName: string;
}

export class ConfigError extends Error {}

/** The operations API's token opens every order and courier: long enough that guessing is hopeless. */
export const OPS_TOKEN_MIN_LENGTH = 32;

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const Int = (fallback: number, minimum: number, maximum: number, description: string) =>
  Type.Integer({ default: fallback, minimum, maximum, description });
const Bool = (fallback: boolean, description: string) => Type.Boolean({ default: fallback, description });
/**
 * `hint`: what the error says when the value does not fit (beside the variable's name); `secret`:
 * a credential, or a URL that may carry one, whose value an error never repeats (start-up errors
 * reach logs and terminals that are not the secret's place).
 */
const Text = (
  description: string,
  options: { minLength?: number; pattern?: string; hint?: string; secret?: true } = {},
) => Type.Optional(Type.String({ minLength: 1, ...options, description }));
/** A credential: see `Text`'s `secret`. */
const Secret = (description: string, options: { minLength?: number; pattern?: string; hint?: string } = {}) =>
  Text(description, { ...options, secret: true });

/**
 * Every environment variable the service reads, with its type, default and bounds: the one
 * schema the environment is checked against at start-up (and the configuration table of docs/operator-guide.md).
 */
export const ENV_SCHEMA = Type.Object({
  PORT: Int(3000, 0, 65535, 'HTTP port'),
  HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'listen address' }),
  DATABASE_URL: Secret('PostgreSQL URL; unset: the embedded PostgreSQL in DATA_DIR'),
  DATA_DIR: Type.String({ default: 'data', minLength: 1, description: 'embedded database and local files' }),
  EMBEDDED_PG_ROOT_DIR: Type.String({
    default: '/var/lib/delivery-orders-api',
    minLength: 1,
    description: 'as root, the embedded PostgreSQL files the postgres user must reach',
  }),
  REDIS_URL: Secret('Redis for rate limits shared across instances'),
  RATE_LIMIT_PER_SECOND: Int(50, 0, 1_000_000, 'per API key; 0 turns limiting off'),
  RATE_LIMIT_BURST: Int(100, 1, 1_000_000, 'tokens a key may spend at once'),
  OPS_TOKEN: Secret(
    'bootstrap bearer token of the operations API, every scope (create the first people and tokens, then unset it)',
    {
      minLength: OPS_TOKEN_MIN_LENGTH,
      hint: `must be at least ${OPS_TOKEN_MIN_LENGTH} characters (e.g. \`openssl rand -hex 32\`)`,
    },
  ),
  LOG_LEVEL: Type.Union(
    LOG_LEVELS.map((level) => Type.Literal(level)),
    { default: 'info', description: 'log level' },
  ),
  PUBLIC_BASE_URL: Text('the URL clients reach the service at', {
    pattern: '^https?://\\S+$',
    hint: 'must be an http(s) URL',
  }),
  AUTH_CACHE_TTL_MS: Int(4000, 0, 4900, 'how long a verified key is trusted from memory'),
  WEBHOOKS_ALLOW_INSECURE: Bool(false, 'http and loopback webhook receivers (development)'),
  RUN_WORKER: Bool(true, 'run the job worker inside the API process'),
  MIGRATE_ON_START: Bool(
    true,
    'apply the migrations when the api/all process starts; 0: a one-shot migrate runs first',
  ),
  DATABASE_POOL_SIZE: Int(10, 1, 1000, "connections of the API's pool"),
  WORKER_CONCURRENCY: Int(8, 1, 1000, 'jobs a worker runs at once (its pool: this + 2, at least)'),
  DATABASE_STATEMENT_TIMEOUT_MS: Int(30_000, 0, 86_400_000, 'statement_timeout of every connection; 0: none'),
  SHUTDOWN_DRAIN_MS: Int(
    5000,
    0,
    600_000,
    'after SIGTERM, how long the server keeps serving with /readyz failing',
  ),
  WEBHOOKS_ENDPOINT_CONCURRENCY: Int(
    4,
    1,
    100,
    'webhook attempts in flight per endpoint, per worker process',
  ),
  WEBHOOKS_MAX_IN_FLIGHT: Int(256, 1, 10_000, 'webhook attempts in flight per worker process, all endpoints'),
  WEBHOOKS_BREAKER_FAILURES: Int(5, 1, 1000, "consecutive failed attempts that open an endpoint's circuit"),
  TEST_MODE_STEP_MS: Int(
    3000,
    10,
    3_600_000,
    "test mode: the accelerated clock of test orders' scenarios, between two steps",
  ),
  WEBHOOKS_BREAKER_PAUSE_MS: Int(
    30_000,
    100,
    3_600_000,
    "how long an open circuit holds an endpoint's deliveries",
  ),
  CURSOR_SECRET: Secret('key of the list cursors', {
    minLength: 32,
    hint: 'must be at least 32 characters (e.g. `openssl rand -hex 32`)',
  }),
  SELLER_NAME: Text('issuer printed on invoices'),
  SELLER_ADDRESS: Text('issuer address, lines separated by "|"'),
  SELLER_SIREN: Text('issuer SIREN (9 digits)'),
  SELLER_VAT_NUMBER: Text('issuer VAT number (FR + key + SIREN)'),
  SELLER_EMAIL: Text('issuer e-mail printed on invoices'),
  SMTP_URL: Secret('SMTP server of the account e-mails (smtp:// or smtps://)', {
    pattern: '^smtps?://\\S+$',
    hint: 'must be an smtp:// or smtps:// URL',
  }),
  MAIL_FROM: Type.String({
    default: 'Delivery Orders <no-reply@livraison-dlv.fr>',
    minLength: 3,
    description: 'sender of the account e-mails',
  }),
  DKIM_DOMAIN: Text(
    'DKIM signing domain of the recipient e-mails (with DKIM_SELECTOR and DKIM_PRIVATE_KEY)',
    {
      pattern: '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$',
      hint: 'must be a domain name',
    },
  ),
  DKIM_SELECTOR: Text('DKIM selector (the DNS record is <selector>._domainkey.<domain>)', {
    pattern: '^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$',
    hint: 'must be a DNS label',
  }),
  DKIM_PRIVATE_KEY: Secret('DKIM private key, PEM (newlines may be written \\n)'),
  TRUST_PROXY: Text('proxies whose X-Forwarded-For is believed: true, a hop count, or addresses/CIDRs', {
    pattern: '^(true|false|\\d+|[0-9a-fA-F.:/]+(\\s*,\\s*[0-9a-fA-F.:/]+)*)$',
    hint: 'must be true, false, a hop count or a comma-separated list of addresses/CIDRs',
  }),
  ACCOUNT_SIGNUP: Text('who may create an account: open or invite', {
    pattern: '^(open|invite)$',
    hint: 'must be open or invite',
  }),
  HEADERS_TIMEOUT_MS: Int(
    10_000,
    100,
    600_000,
    "a request's headers must arrive within (at most REQUEST_TIMEOUT_MS)",
  ),
  REQUEST_TIMEOUT_MS: Int(30_000, 100, 600_000, 'a whole request, headers and body, must arrive within'),
  KEEP_ALIVE_TIMEOUT_MS: Int(65_000, 100, 600_000, 'an idle kept-alive connection is closed after'),
  MAX_CONNECTIONS_PER_ADDRESS: Int(256, 0, 1_000_000, 'open connections per client address; 0: no cap'),
  SHOPIFY_API_KEY: Text('client id of the Shopify app (turns the Shopify connector on)'),
  SHOPIFY_API_SECRET: Secret('client secret of the Shopify app (signs OAuth, webhooks and rate requests)'),
  SHOPIFY_ADMIN_ORIGIN_TEMPLATE: Type.String({
    default: 'https://{shop}',
    pattern: '^https?://\\S*\\{shop\\}\\S*$',
    hint: 'must be an http(s) URL containing {shop}',
    description: "a shop's admin origin; {shop} is its myshopify.com domain (tests only change it)",
  }),
  CONNECTOR_SECRET_KEY: Secret('AES-256 key of shop credentials at rest, 64 hex characters', {
    pattern: '^[0-9a-fA-F]{64}$',
    hint: 'must be 64 hexadecimal characters (e.g. `openssl rand -hex 32`)',
  }),
  RECIPIENT_DATA_KEY: Secret("AES-256 key of recipients' delivery instructions at rest, 64 hex characters", {
    pattern: '^[0-9a-fA-F]{64}$',
    hint: 'must be 64 hexadecimal characters (e.g. `openssl rand -hex 32`)',
  }),
  OPERATOR_TOTP_KEY: Secret(
    "AES-256 key of the operators' second-factor secrets at rest, 64 hex characters",
    {
      pattern: '^[0-9a-fA-F]{64}$',
      hint: 'must be 64 hexadecimal characters (e.g. `openssl rand -hex 32`)',
    },
  ),
  OPT_OUT_KEY: Secret("HMAC key of the recipients' opt-out list and unsubscribe links, 64 hex characters", {
    pattern: '^[0-9a-fA-F]{64}$',
    hint: 'must be 64 hexadecimal characters (e.g. `openssl rand -hex 32`)',
  }),
  CARRIER_NAME: Type.String({
    default: 'Livraison DLV',
    minLength: 1,
    maxLength: 60,
    description: 'carrier name shown at checkout, in shops’ tracking information and on labels',
  }),
  CONNECTORS_ALLOW_INSECURE: Bool(
    false,
    'http and loopback shop addresses for the WooCommerce/PrestaShop bridges (development)',
  ),
  METRICS_PORT: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 65535,
      description: '/metrics on this port, without authentication',
    }),
  ),
  METRICS_TOKEN: Secret('bearer token of /metrics on PORT', {
    minLength: 16,
    hint: 'must be at least 16 characters (e.g. `openssl rand -hex 32`)',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Text('OTLP/HTTP collector of the traces (…/v1/traces is appended)', {
    pattern: '^https?://\\S+$',
    hint: 'must be an http(s) URL',
  }),
  OTEL_SERVICE_NAME: Text('service.name of the traces'),
  OBJECT_STORE: Text('where proof-of-delivery files go: fs (DATA_DIR/objects) or s3', {
    pattern: '^(fs|s3)$',
    hint: 'must be fs or s3',
  }),
  S3_ENDPOINT: Text('S3 endpoint (MinIO, another provider…); unset: AWS for S3_REGION', {
    pattern: '^https?://\\S+$',
    hint: 'must be an http(s) URL',
  }),
  S3_BUCKET: Text('S3 bucket of the proof-of-delivery files (required when OBJECT_STORE=s3)'),
  S3_REGION: Type.String({ default: 'us-east-1', minLength: 1, description: 'S3 region' }),
  S3_ACCESS_KEY_ID: Text("S3 access key id; unset: the AWS SDK's default credentials"),
  S3_SECRET_ACCESS_KEY: Secret('S3 secret access key (with S3_ACCESS_KEY_ID)'),
  S3_FORCE_PATH_STYLE: Bool(
    false,
    'path-style S3 URLs (endpoint/bucket/key), as MinIO and most S3-compatible servers want',
  ),
  TWILIO_ACCOUNT_SID: Text('Twilio account SID sending the SMS (with TWILIO_AUTH_TOKEN and SMS_FROM)', {
    pattern: '^AC[0-9a-fA-F]{32}$',
    hint: 'must be AC followed by 32 hexadecimal characters (Twilio console, Account Info)',
  }),
  TWILIO_AUTH_TOKEN: Secret('Twilio auth token: the API password and the key of X-Twilio-Signature', {
    pattern: '^[0-9a-fA-F]{32}$',
    hint: 'must be the 32 hexadecimal characters of the Twilio console',
  }),
  SMS_FROM: Text('the service’s SMS number, E.164 (+33…): recipients answer STOP to it', {
    pattern: '^\\+[1-9][0-9]{6,14}$',
    hint: 'must be a number in E.164 form, e.g. +33612345678',
  }),
  GEOCODER_URL: Secret(
    'geocoder: the Base Adresse Nationale (https://api-adresse.data.gouv.fr) or an addok; unset: addresses at their postcode',
    { pattern: '^https?://\\S+$', hint: 'must be an http(s) URL' },
  ),
  GEOCODER_TIMEOUT_MS: Int(
    3000,
    100,
    60_000,
    "one geocoder request's timeout (the address-check job waits this long)",
  ),
  GEOCODER_RATE_PER_SECOND: Int(
    40,
    1,
    10_000,
    'geocoder requests a second per process (BAN allows 50 per address)',
  ),
  GEOCODER_BUDGET_MS: Int(
    300,
    0,
    10_000,
    "how long an order's creation waits for the geocoder; then address_check_pending, checked by a job",
  ),
  OSRM_URL: Secret('OSRM router of travel times (osrm-routed); unset: great-circle estimates', {
    pattern: '^https?://\\S+$',
    hint: 'must be an http(s) URL',
  }),
  OSRM_TIMEOUT_MS: Int(5000, 100, 120_000, "one router request's timeout"),
  ROUTE_OPTIMISER_URL: Secret('VROOM (vroom-express) round optimiser; unset: the in-process solver', {
    pattern: '^https?://\\S+$',
    hint: 'must be an http(s) URL',
  }),
  ROUTE_OPTIMISER_TIMEOUT_MS: Int(
    30_000,
    1000,
    600_000,
    "one VROOM request's timeout; past it the in-process solver plans",
  ),
  ROUND_PLAN_TIME_LIMIT_MS: Int(5000, 100, 120_000, "how long the in-process solver searches a day's rounds"),
  CONSOLE_MAP_TILE_URL: Text(
    "the console map's tiles, a URL template with {z}, {x} and {y} (a path on the console's origin, or http(s)); unset: a plain background, no tile requests",
    {
      pattern: '^(/(?!/)|https?://[^/\\s]+/)\\S*\\{z\\}\\S*$',
      hint: 'must be a path (/tiles/{z}/{x}/{y}.png) or an http(s) URL, with {z}, {x} and {y}',
    },
  ),
  CONSOLE_MAP_TILE_ATTRIBUTION: Text("the console map's tiles' attribution (plain text, shown on the map)", {
    pattern: '^[^<>]{1,200}$',
    hint: 'must be plain text (no < or >), at most 200 characters',
  }),
  OSRM_PROFILES: Type.String({
    default: 'van',
    pattern: `^(${VEHICLE_PROFILES.join('|')})(\\s*,\\s*(${VEHICLE_PROFILES.join('|')}))*$`,
    hint: `must be a comma-separated list of ${VEHICLE_PROFILES.join(', ')}`,
    description: "the vehicles OSRM_URL's data routes (the others are estimated)",
  }),
  ARRIVAL_SERVICE_SECONDS: Int(
    240,
    0,
    3600,
    'seconds a courier spends at each delivery stop (parking, the door, the hand-over), for arrival times',
  ),
  ARRIVAL_HUB: Text(
    'where rounds leave from ("lat,lng"); unset: the first stop is reached at the departure',
    {
      pattern: '^-?\\d{1,2}(\\.\\d{1,6})?,\\s*-?\\d{1,3}(\\.\\d{1,6})?$',
      hint: 'must be "latitude,longitude" in decimal degrees, e.g. 48.8566,2.3522',
    },
  ),
  ARRIVAL_VEHICLE: Type.Union(
    VEHICLE_PROFILES.map((p) => Type.Literal(p)),
    {
      default: 'cargo_bike',
      hint: `must be one of ${VEHICLE_PROFILES.join(', ')}`,
      description: "the vehicle rounds' arrival times are estimated for",
    },
  ),
  TWILIO_API_BASE: Type.String({
    default: 'https://api.twilio.com',
    pattern: '^https?://\\S+$',
    hint: 'must be an http(s) URL',
    description: 'Twilio REST API origin; http only on the loopback (tests, a local fake)',
  }),
  MESSAGE_LOG_RETENTION_DAYS: Int(
    90,
    7,
    3650,
    'days webhook events, deliveries, attempts, notifications and shops’ webhooks are kept',
  ),
  RECIPIENT_DATA_RETENTION_DAYS: Int(
    365,
    1,
    3650,
    "days a recipient's name, address, phone and e-mail stay on an order after it ended",
  ),
  SELLER_SIRET: Text(
    'issuer SIRET (14 digits, starting with SELLER_SIREN): the e-invoices’ seller identifier',
    {
      pattern: '^[0-9 ]{14,20}$',
      hint: 'must be the 14 digits of the SIRET',
    },
  ),
  SELLER_IBAN: Text('account the invoices are paid into (printed, and in the e-invoices)', {
    pattern: '^[A-Za-z]{2}[0-9]{2}[A-Za-z0-9 ]{10,40}$',
    hint: 'must be an IBAN, e.g. FR76 3000 6000 0112 3456 7890 189',
  }),
  SELLER_BIC: Text('BIC of SELLER_IBAN’s bank', {
    pattern: '^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$',
    hint: 'must be a BIC of 8 or 11 characters',
  }),
  EINVOICE_VAT_ON_DEBITS: Bool(
    false,
    'the operator opted to pay VAT on debits: invoices say so, and payments are not reported',
  ),
  EINVOICE_PLATFORM: Type.Union([Type.Literal('directory'), Type.Literal('afnor')], {
    default: 'directory',
    hint: 'must be directory or afnor',
    description: 'where issued e-invoices go: files in EINVOICE_DIR, or an AFNOR XP Z12-013 platform',
  }),
  EINVOICE_DIR: Text(
    'directory platform: where documents and statuses are written (default DATA_DIR/einvoices)',
  ),
  EINVOICE_PA_FLOW_URL: Secret(
    'AFNOR platform: the Flow Service base URL (https; http only on the loopback)',
    {
      pattern: '^https?://\\S+$',
      hint: 'must be an http(s) URL',
    },
  ),
  EINVOICE_PA_TOKEN_URL: Secret('AFNOR platform: its OAuth 2.0 token endpoint', {
    pattern: '^https?://\\S+$',
    hint: 'must be an http(s) URL',
  }),
  EINVOICE_PA_CLIENT_ID: Text('AFNOR platform: OAuth client id'),
  EINVOICE_PA_CLIENT_SECRET: Secret('AFNOR platform: OAuth client secret'),
  EMISSION_ALLOCATION: Type.Union(
    ALLOCATION_RULES.map((r) => Type.Literal(r)),
    {
      default: 'parcel',
      hint: `must be one of ${ALLOCATION_RULES.join(', ')}`,
      description:
        "how a round's CO₂e is shared among its deliveries (ISO 14083): by parcel, or by parcel × direct distance from the hub",
    },
  ),
  EMISSION_DIESEL_G_PER_L: Int(
    DEFAULT_EMISSION_SETTINGS.diesel.gramsPerLitre,
    1,
    10_000,
    'diesel emission factor, g CO₂e per litre, well to wheel (default: the arrêté of 26 April 2017, gazole routier)',
  ),
  EMISSION_DIESEL_SOURCE: Text(
    'where EMISSION_DIESEL_G_PER_L comes from (required when it is not the default)',
  ),
  EMISSION_GRID_G_PER_KWH: Int(
    DEFAULT_EMISSION_SETTINGS.grid.gramsPerKwh,
    0,
    2_000,
    'French grid electricity emission factor, g CO₂e per kWh, well to wheel (default: the arrêté of 26 April 2017)',
  ),
  EMISSION_GRID_SOURCE: Text(
    'where EMISSION_GRID_G_PER_KWH comes from (required when it is not the default)',
  ),
  EMISSION_ENERGY_USE: Text(
    'energy use per 100 km: "van=10,electric_van=25,cargo_bike=1.5" (litres for the van, kWh at the plug otherwise)',
    {
      pattern: '^\\s*[a-z_]+=\\d+(\\.\\d+)?\\s*(,\\s*[a-z_]+=\\d+(\\.\\d+)?\\s*)*$',
      hint: 'must be kind=number pairs separated by commas, e.g. van=10,electric_van=25,cargo_bike=1.5',
    },
  ),
  AUDIT_RETENTION_DAYS: Int(
    365,
    90,
    3650,
    'days the audit trail is kept at least (then dropped by whole months): a year, as SOC 2 audits look back',
  ),
});

type Env_ = Static<typeof ENV_SCHEMA>;

const BOOLEAN_WORDS: Record<string, string> = { yes: 'true', on: 'true', no: 'false', off: 'false' };

/**
 * The environment checked against ENV_SCHEMA: values trimmed, empty ones treated as unset,
 * defaults applied, numbers and booleans converted; the first violation is a ConfigError naming
 * the variable.
 */
function parseEnv(env: Env): Env_ {
  const raw: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ENV_SCHEMA.properties)) {
    const value = env[name]?.trim();
    if (value === undefined || value === '') continue;
    const kind = (schema as { type?: string }).type;
    if (kind === 'integer' && !/^\d+$/.test(value))
      throw new ConfigError(`${name} must be an integer, got "${value}"`);
    raw[name] = kind === 'boolean' ? (BOOLEAN_WORDS[value.toLowerCase()] ?? value.toLowerCase()) : value;
  }
  const parsed = Value.Convert(ENV_SCHEMA, Value.Default(ENV_SCHEMA, raw));
  const error = Value.Errors(ENV_SCHEMA, parsed).First();
  if (error) {
    const name = error.path.slice(1);
    const schema = ENV_SCHEMA.properties[name as keyof Env_] as {
      type?: string;
      anyOf?: unknown;
      hint?: string;
      minimum?: number;
      maximum?: number;
      secret?: true;
    };
    const hint =
      schema?.hint ??
      (schema?.type === 'integer'
        ? `must be between ${schema.minimum} and ${schema.maximum}`
        : schema?.type === 'boolean'
          ? 'must be a boolean (1/0, true/false, yes/no, on/off)'
          : schema?.anyOf
            ? `must be one of ${LOG_LEVELS.join(', ')}`
            : error.message.toLowerCase().replace(/^expected /, 'must be '));
    const value = String(env[name]).trim();
    const length = [...value].length;
    const got = schema?.secret
      ? `got ${length} character${length === 1 ? '' : 's'} (the value of a secret is not shown)`
      : `got "${value}"`;
    throw new ConfigError(`${name} ${hint}, ${got}`);
  }
  return parsed as Env_;
}

const SELLER_REQUIRED = ['SELLER_NAME', 'SELLER_ADDRESS', 'SELLER_SIREN', 'SELLER_VAT_NUMBER'] as const;

/**
 * The company issuing the invoices. All of SELLER_NAME, SELLER_ADDRESS (lines separated by "|"),
 * SELLER_SIREN and SELLER_VAT_NUMBER, or none (the placeholder): a French invoice without its
 * issuer's registration is not valid, so a half-configured seller refuses to start.
 */
function seller(env: Env_): { seller: Readonly<SellerIdentity>; sellerIsPlaceholder: boolean } {
  const given = SELLER_REQUIRED.filter((name) => env[name] !== undefined);
  if (given.length === 0) return { seller: DEFAULT_SELLER, sellerIsPlaceholder: true };
  const missing = SELLER_REQUIRED.filter((name) => !given.includes(name));
  if (missing.length > 0)
    throw new ConfigError(`set all of ${SELLER_REQUIRED.join(', ')}; missing ${missing.join(', ')}`);
  const siren = env.SELLER_SIREN!.replace(/\s/g, '');
  if (!/^\d{9}$/.test(siren)) throw new ConfigError('SELLER_SIREN must be 9 digits');
  const vatNumber = env.SELLER_VAT_NUMBER!.replace(/\s/g, '').toUpperCase();
  if (vatNumber !== `FR${frenchVatKey(siren)}${siren}`) {
    throw new ConfigError(
      `SELLER_VAT_NUMBER must be the SIREN's French VAT number, FR${frenchVatKey(siren)}${siren}`,
    );
  }
  const address = env
    .SELLER_ADDRESS!.split('|')
    .map((line) => line.trim())
    .filter(Boolean);
  if (!parsePostalAddress(address.join('\n'))) {
    throw new ConfigError(
      'SELLER_ADDRESS needs a line with the postcode and the city, e.g. "12 rue X | 75010 Paris | France": e-invoices carry them apart',
    );
  }
  const email = env.SELLER_EMAIL ?? null;
  const siret = env.SELLER_SIRET?.replace(/\s/g, '');
  if (siret !== undefined && (!/^\d{14}$/.test(siret) || !siret.startsWith(siren)))
    throw new ConfigError(
      `SELLER_SIRET must be 14 digits starting with the SIREN ${siren}, got "${env.SELLER_SIRET}"`,
    );
  const iban = env.SELLER_IBAN?.replace(/\s/g, '').toUpperCase();
  if (iban !== undefined && !ibanChecksOut(iban))
    throw new ConfigError(
      `SELLER_IBAN's check digits do not hold (a character is mistyped), got "${env.SELLER_IBAN}"`,
    );
  return {
    seller: Object.freeze({
      name: env.SELLER_NAME!,
      address,
      siren: formatSiren(siren),
      vatNumber,
      ...(email ? { email } : {}),
      ...(siret ? { siret } : {}),
      ...(iban ? { iban } : {}),
      ...(env.SELLER_BIC ? { bic: env.SELLER_BIC.toUpperCase() } : {}),
    }),
    sellerIsPlaceholder: false,
  };
}

/** ISO 13616: the IBAN moved round by four characters, letters as numbers, is 1 modulo 97. */
function ibanChecksOut(iban: string): boolean {
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

const AFNOR_REQUIRED = [
  'EINVOICE_PA_FLOW_URL',
  'EINVOICE_PA_TOKEN_URL',
  'EINVOICE_PA_CLIENT_ID',
  'EINVOICE_PA_CLIENT_SECRET',
] as const;

/** The e-invoicing platform: the directory, or an AFNOR platform with all four of its settings. */
function einvoicing(env: Env_, dataDir: string, cwd: string): EInvoicingConfig {
  const vatOnDebits = env.EINVOICE_VAT_ON_DEBITS;
  if (env.EINVOICE_PLATFORM !== 'afnor') {
    const dir = env.EINVOICE_DIR ? path.resolve(cwd, env.EINVOICE_DIR) : path.join(dataDir, 'einvoices');
    return { vatOnDebits, platform: { kind: 'directory', dir } };
  }
  const missing = AFNOR_REQUIRED.filter((name) => env[name] === undefined);
  if (missing.length > 0)
    throw new ConfigError(
      `EINVOICE_PLATFORM=afnor needs ${AFNOR_REQUIRED.join(', ')}; missing ${missing.join(', ')}`,
    );
  for (const name of ['EINVOICE_PA_FLOW_URL', 'EINVOICE_PA_TOKEN_URL'] as const) {
    const url = new URL(env[name]!);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
      throw new ConfigError(`${name} must be https (http only on the loopback), got "${env[name]}"`);
  }
  return {
    vatOnDebits,
    platform: {
      kind: 'afnor',
      flowUrl: env.EINVOICE_PA_FLOW_URL!.replace(/\/+$/, ''),
      tokenUrl: env.EINVOICE_PA_TOKEN_URL!,
      clientId: env.EINVOICE_PA_CLIENT_ID!,
      clientSecret: env.EINVOICE_PA_CLIENT_SECRET!,
    },
  };
}

/**
 * The emission settings: each factor the operator sets names its source (the decree requires it
 * told), and the energy uses name only the kinds that use energy.
 */
function emissionSettings(env: Env_): EmissionSettings {
  const d = DEFAULT_EMISSION_SETTINGS;
  const diesel = env.EMISSION_DIESEL_G_PER_L;
  const grid = env.EMISSION_GRID_G_PER_KWH;
  if (diesel !== d.diesel.gramsPerLitre && !env.EMISSION_DIESEL_SOURCE)
    throw new ConfigError(
      'EMISSION_DIESEL_G_PER_L is not the default: EMISSION_DIESEL_SOURCE must say where it comes from',
    );
  if (grid !== d.grid.gramsPerKwh && !env.EMISSION_GRID_SOURCE)
    throw new ConfigError(
      'EMISSION_GRID_G_PER_KWH is not the default: EMISSION_GRID_SOURCE must say where it comes from',
    );
  const energyUse = { ...d.energyUse };
  for (const pair of (env.EMISSION_ENERGY_USE ?? '').split(',').filter((p) => p.trim() !== '')) {
    const [kind, value] = pair.split('=').map((x) => x.trim());
    if (!(POWERED_KINDS as readonly string[]).includes(kind!))
      throw new ConfigError(`EMISSION_ENERGY_USE names "${kind}": the kinds are ${POWERED_KINDS.join(', ')}`);
    energyUse[kind as (typeof POWERED_KINDS)[number]] = Number(value);
  }
  return {
    allocation: env.EMISSION_ALLOCATION,
    diesel: { gramsPerLitre: diesel, source: env.EMISSION_DIESEL_SOURCE ?? d.diesel.source },
    grid: { gramsPerKwh: grid, source: env.EMISSION_GRID_SOURCE ?? d.grid.source },
    energyUse,
  };
}

/**
 * Development is a deployment not published over https (PUBLIC_BASE_URL unset or http://): there,
 * and only there, shop credentials may be encrypted with a key kept in the database beside them.
 */
export function isDevelopment(publicBaseUrl: string | null): boolean {
  return publicBaseUrl === null || !publicBaseUrl.startsWith('https://');
}

/** The Shopify app: both credentials or neither; a published service needs CONNECTOR_SECRET_KEY for it. */
function shopify(env: Env_): ShopifyAppConfig | null {
  if (env.SHOPIFY_API_KEY === undefined && env.SHOPIFY_API_SECRET === undefined) return null;
  if (env.SHOPIFY_API_KEY === undefined || env.SHOPIFY_API_SECRET === undefined)
    throw new ConfigError('set both SHOPIFY_API_KEY and SHOPIFY_API_SECRET, or neither');
  if (env.CONNECTOR_SECRET_KEY === undefined && !isDevelopment(env.PUBLIC_BASE_URL ?? null)) {
    throw new ConfigError(
      'CONNECTOR_SECRET_KEY is required to run the Shopify connector outside development (PUBLIC_BASE_URL ' +
        'is https): shop access tokens are encrypted with it (`openssl rand -hex 32`)',
    );
  }
  return {
    apiKey: env.SHOPIFY_API_KEY,
    apiSecret: env.SHOPIFY_API_SECRET,
    adminOriginTemplate: env.SHOPIFY_ADMIN_ORIGIN_TEMPLATE.replace(/\/+$/, ''),
    carrierName: env.CARRIER_NAME,
  };
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const e = parseEnv(env);
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS must be at most REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS}), got "${e.HEADERS_TIMEOUT_MS}"`,
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(`METRICS_PORT must differ from PORT (${e.PORT}), got "${e.METRICS_PORT}"`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL ?? null,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    dataDirIsDefault: (env.DATA_DIR?.trim() ?? '') === '',
    embeddedPgRootDir: path.resolve(cwd, e.EMBEDDED_PG_ROOT_DIR),
    redisUrl: e.REDIS_URL ?? null,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    rateLimitBurst: e.RATE_LIMIT_BURST,
    opsToken: e.OPS_TOKEN ?? null,
    logLevel: e.LOG_LEVEL,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? null,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    webhooksAllowInsecure: e.WEBHOOKS_ALLOW_INSECURE,
    runWorker: e.RUN_WORKER,
    migrateOnStart: e.MIGRATE_ON_START,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    workerConcurrency: e.WORKER_CONCURRENCY,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    testModeStepMs: e.TEST_MODE_STEP_MS,
    webhookDelivery: {
      perEndpoint: e.WEBHOOKS_ENDPOINT_CONCURRENCY,
      maxInFlight: e.WEBHOOKS_MAX_IN_FLIGHT,
      breaker: { failures: e.WEBHOOKS_BREAKER_FAILURES, pauseMs: e.WEBHOOKS_BREAKER_PAUSE_MS },
    },
    cursorSecret: e.CURSOR_SECRET ?? null,
    ...seller(e),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    dkim: dkim(e),
    smsFrom: e.SMS_FROM ?? null,
    accountSignup: e.ACCOUNT_SIGNUP === 'invite' ? 'invite' : 'open',
    shopify: shopify(e),
    connectorSecretKey: e.CONNECTOR_SECRET_KEY ? Buffer.from(e.CONNECTOR_SECRET_KEY, 'hex') : null,
    recipientDataKey: e.RECIPIENT_DATA_KEY ? Buffer.from(e.RECIPIENT_DATA_KEY, 'hex') : null,
    operatorTotpKey: e.OPERATOR_TOTP_KEY ? Buffer.from(e.OPERATOR_TOTP_KEY, 'hex') : null,
    optOutKey: e.OPT_OUT_KEY ? Buffer.from(e.OPT_OUT_KEY, 'hex') : null,
    connectorsAllowInsecure: e.CONNECTORS_ALLOW_INSECURE,
    carrierName: e.CARRIER_NAME,
    woocommerce: e.CONNECTOR_SECRET_KEY !== undefined || isDevelopment(e.PUBLIC_BASE_URL ?? null),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS,
    metricsPort: e.METRICS_PORT ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    otelServiceName: e.OTEL_SERVICE_NAME ?? null,
    ...objectStore(e),
    twilio: twilio(e),
    retention: {
      messageLogDays: e.MESSAGE_LOG_RETENTION_DAYS,
      recipientDataDays: e.RECIPIENT_DATA_RETENTION_DAYS,
      auditDays: e.AUDIT_RETENTION_DAYS,
    },
    einvoicing: einvoicing(e, path.resolve(cwd, e.DATA_DIR), cwd),
    emissions: emissionSettings(e),
    geocoder: e.GEOCODER_URL
      ? {
          url: e.GEOCODER_URL.replace(/\/+$/, ''),
          timeoutMs: e.GEOCODER_TIMEOUT_MS,
          ratePerSecond: e.GEOCODER_RATE_PER_SECOND,
          budgetMs: e.GEOCODER_BUDGET_MS,
        }
      : null,
    router: e.OSRM_URL
      ? {
          url: e.OSRM_URL.replace(/\/+$/, ''),
          timeoutMs: e.OSRM_TIMEOUT_MS,
          profiles: [...new Set(e.OSRM_PROFILES.split(',').map((p) => p.trim()))].filter(isVehicleProfile),
        }
      : null,
    arrivals: {
      serviceSeconds: e.ARRIVAL_SERVICE_SECONDS,
      hub: e.ARRIVAL_HUB ? hubPoint(e.ARRIVAL_HUB) : null,
      vehicle: e.ARRIVAL_VEHICLE,
    },
    optimiser: {
      url: e.ROUTE_OPTIMISER_URL ? e.ROUTE_OPTIMISER_URL.replace(/\/+$/, '') : null,
      timeoutMs: e.ROUTE_OPTIMISER_TIMEOUT_MS,
      timeLimitMs: e.ROUND_PLAN_TIME_LIMIT_MS,
    },
    consoleMap: {
      tileUrl: e.CONSOLE_MAP_TILE_URL ? tileUrl(e.CONSOLE_MAP_TILE_URL) : null,
      attribution: e.CONSOLE_MAP_TILE_ATTRIBUTION ?? null,
    },
  };
}

/** CONSOLE_MAP_TILE_URL: a tile needs all three of {z}, {x} and {y} (the pattern checked the first). */
function tileUrl(value: string): string {
  const missing = ['{x}', '{y}'].filter((p) => !value.includes(p));
  if (missing.length > 0)
    throw new ConfigError(
      `CONSOLE_MAP_TILE_URL must contain {z}, {x} and {y} (missing ${missing.join(', ')}), e.g. /tiles/{z}/{x}/{y}.png`,
    );
  return value;
}

const DKIM_VARIABLES = ['DKIM_DOMAIN', 'DKIM_SELECTOR', 'DKIM_PRIVATE_KEY'] as const;

/** DKIM: all three or none (a half-configured signer would send unsigned mail unnoticed); the key must parse. */
/** ARRIVAL_HUB's point: in Île-de-France, where the rounds are. */
function hubPoint(value: string): { lat: number; lng: number } {
  const [lat, lng] = value.split(',').map((x) => Number(x.trim())) as [number, number];
  if (!isInIleDeFrance({ lat, lng }))
    throw new ConfigError(
      'ARRIVAL_HUB must be a point in Île-de-France ("latitude,longitude", e.g. 48.8566,2.3522)',
    );
  return { lat, lng };
}

function dkim(env: Env_): Config['dkim'] {
  const given = DKIM_VARIABLES.filter((name) => env[name] !== undefined);
  if (given.length === 0) return null;
  const missing = DKIM_VARIABLES.filter((name) => !given.includes(name));
  if (missing.length > 0)
    throw new ConfigError(`set all of ${DKIM_VARIABLES.join(', ')}, or none; missing ${missing.join(', ')}`);
  // An environment variable often carries the PEM on one line, its newlines written \n.
  const privateKey = env.DKIM_PRIVATE_KEY!.replace(/\\n/g, '\n');
  try {
    const key = createPrivateKey(privateKey);
    // nodemailer signs rsa-sha256 only.
    if (key.asymmetricKeyType !== 'rsa') throw new Error(key.asymmetricKeyType);
  } catch {
    throw new ConfigError('DKIM_PRIVATE_KEY must be an RSA private key in PEM');
  }
  return { domain: env.DKIM_DOMAIN!.toLowerCase(), selector: env.DKIM_SELECTOR!, privateKey };
}

const TWILIO_REQUIRED = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'SMS_FROM'] as const;

/**
 * Twilio: all three of TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM, or none (SMS then go to
 * files). Twilio calls the webhooks back at PUBLIC_BASE_URL and signs that very URL, so it is
 * needed too; plain http is only for an API on the loopback (a fake), never to carry the token.
 */
function twilio(env: Env_): TwilioConfig | null {
  const given = TWILIO_REQUIRED.filter((name) => env[name] !== undefined);
  if (given.length === 0) return null;
  const missing = TWILIO_REQUIRED.filter((name) => !given.includes(name));
  if (missing.length > 0)
    throw new ConfigError(`set all of ${TWILIO_REQUIRED.join(', ')}, or none; missing ${missing.join(', ')}`);
  if (env.PUBLIC_BASE_URL === undefined) {
    throw new ConfigError(
      'PUBLIC_BASE_URL is required with TWILIO_ACCOUNT_SID: Twilio posts delivery reports and replies to it',
    );
  }
  const apiBase = env.TWILIO_API_BASE.replace(/\/+$/, '');
  const url = URL.canParse(apiBase) ? new URL(apiBase) : null;
  if (url === null)
    throw new ConfigError(`TWILIO_API_BASE must be an http(s) URL, got "${env.TWILIO_API_BASE}"`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ConfigError(
      `TWILIO_API_BASE must be https (http only on the loopback), got "${env.TWILIO_API_BASE}"`,
    );
  }
  return {
    accountSid: env.TWILIO_ACCOUNT_SID!,
    authToken: env.TWILIO_AUTH_TOKEN!,
    from: env.SMS_FROM!,
    apiBase,
  };
}

const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** OBJECT_STORE=s3 needs its bucket; the access key comes as a pair or not at all. */
function objectStore(env: Env_): Pick<Config, 'objectStore' | 's3'> {
  if (env.OBJECT_STORE !== 's3') return { objectStore: 'fs', s3: null };
  if (env.S3_BUCKET === undefined) throw new ConfigError('S3_BUCKET is required when OBJECT_STORE=s3');
  if ((env.S3_ACCESS_KEY_ID === undefined) !== (env.S3_SECRET_ACCESS_KEY === undefined))
    throw new ConfigError('set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither');
  return {
    objectStore: 's3',
    s3: {
      endpoint: env.S3_ENDPOINT ?? null,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      credentials:
        env.S3_ACCESS_KEY_ID !== undefined && env.S3_SECRET_ACCESS_KEY !== undefined
          ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
          : null,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
    },
  };
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim());
}
