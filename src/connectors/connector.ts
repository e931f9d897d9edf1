import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Stores, Transact } from '../db/stores.ts';
import type { OrderService } from '../domain/orders/order-service.ts';
import type { RateService } from '../domain/rates/rate-service.ts';
import type { EventType } from '../events/catalogue.ts';
import type { AccountPart } from '../http/account/shop-part.ts';
import type { ConnectorWording } from '../i18n/words.ts';
import type { JsonRequester } from '../infra/http/json-request.ts';
import type { DestinationGuard } from '../infra/http/url-guard.ts';
import type { Job } from '../jobs/job.ts';
import type { Platform } from './connection.ts';
import type { ConnectionsService, RemoteCleanup } from './connections-service.ts';
import type { ConnectorDirectory } from './connector-directory.ts';
import type { CredentialCipher } from './credentials.ts';
import type { Resync } from './resync.ts';

export type { Platform };

/**
 * What a connector is built from (the composition root gives it once): the services it calls, the
 * shops' SSRF guard and outbound client, and the deployment's own address for the shop's callbacks.
 */
export interface ConnectorContext {
  config: Config;
  stores: Stores;
  transact: Transact;
  orders: OrderService;
  rates: RateService;
  connections: ConnectionsService;
  directory: ConnectorDirectory;
  cipher: CredentialCipher;
  clock: () => Date;
  /** The shops' callbacks point here (PUBLIC_BASE_URL, else the listen address). */
  baseUrl: string;
  /** The SSRF guard for shop addresses chosen by brands (CONNECTORS_ALLOW_INSECURE: http and loopback). */
  shopGuard: DestinationGuard;
  /** Calls to shops' own addresses, through the shops' outbound client (the same guard on connect). */
  shopRequest: JsonRequester;
  /** Calls to a platform's own hosts, refused with `publicRule` when they are not public. */
  requester(publicRule: string): JsonRequester;
  /** Why shop credentials may not be stored here (published without CONNECTOR_SECRET_KEY), or null. */
  credentialRefusal: string | null;
}

/** What the receivers (the routes a shop calls) may use besides their connector. */
export interface ReceiverContext {
  connections: ConnectionsService;
}

/**
 * A shop platform, as the rest of the service sees it: everything platform-specific lives in its
 * folder (src/connectors/<platform>/) behind this, and src/connectors/registry.ts lists them. `I` is
 * the wired connector (its linking, inbox, status sync, poll…) made once by `create`, null when the
 * deployment leaves the platform off; links of a platform turned off still exist, so the hooks get
 * it as it is.
 */
export interface Connector<I = unknown, P extends Platform = Platform> {
  /** Stored with each link (`connections.platform`) and in job names: never renamed. */
  readonly platform: P;
  /** The platform's name in messages and the start-up summary. */
  readonly label: string;
  /** Whether this deployment runs it (its settings are in config.ts); `create` gives null when not. */
  isOn(config: Config): boolean;
  create(ctx: ConnectorContext): I;
  /**
   * Its words (src/connectors/<platform>/wording.ts): the account area's card, form and messages, FR
   * and EN side by side, merged into the account table (through src/connectors/wordings.ts).
   */
  readonly wording: ConnectorWording;
  /**
   * Its part of the account area (src/connectors/<platform>/account/): its connect card on the Shops
   * page, what its links' cards add, and its routes there.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each platform's forms' state and card extras are its own
  readonly account: AccountPart<I, any, any>;
  /** How to turn it on, when it is off (the server's start-up summary). */
  readonly offNotice: string;
  /** The routes the shop calls (signed with a raw-body HMAC, checked before anything is read), under `prefix`. */
  readonly receivers: {
    prefix: string;
    routes(connector: NonNullable<I>, ctx: ReceiverContext): (app: FastifyInstance) => Promise<void>;
  };
  /**
   * Status sync back: the outbox events about the platform's own orders that its `job` (one per
   * event) sends to the shop, in the order's own queue (`<queuePrefix>:<tracking ref>`).
   */
  readonly syncBack: { events: readonly EventType[]; job: string; queuePrefix: string };
  /**
   * Settings a link of this platform takes besides the common ones: shop order statuses the brand
   * may ship besides the paid one (an order waiting for a bank transfer…), when the platform has such a choice.
   */
  readonly extraStatuses?: readonly string[];
  /** Unlink: what is removed from the shop when a brand disconnects (throws when some of it stays). */
  unlink?(connector: I): RemoteCleanup;
  /** `dlv connectors resync`: reading the shop's orders back since a date, when the platform can. */
  resync?(connector: I): Resync;
  /**
   * The platform's jobs (intake, status sync, poll): each reads its connector from the job context,
   * under the platform's identifier (`deps.<platform>`). Their names and payloads are in src/jobs/job-names.ts.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each job has its own payload fields and context
  readonly jobs: readonly Job<any, any>[];
}

/** Typed for the registry: the platform's name and its wired type kept. */
export const defineConnector = <I, const P extends Platform>(connector: Connector<I, P>): Connector<I, P> =>
  connector;
