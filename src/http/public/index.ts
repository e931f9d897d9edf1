import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Transact } from '../../db/stores.ts';
import type { EmissionService } from '../../domain/emissions/emission-service.ts';
import type { InvoiceService } from '../../domain/invoices/invoice-service.ts';
import type { LabelService } from '../../domain/labels/label-service.ts';
import type { OrderLinks } from '../../domain/orders/order-json.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { PickupService } from '../../domain/pickups/pickup-service.ts';
import type { AddressValidator } from '../../domain/places/address-validation.ts';
import type { ProofService } from '../../domain/proofs/proof-service.ts';
import type { RateService } from '../../domain/rates/rate-service.ts';
import type { SimulationService } from '../../domain/test-mode/simulation.ts';
import type { WebhookSubscriptions } from '../../domain/webhooks/webhook-subscriptions.ts';
import { type TypedApp, typed } from '../shared/app-types.ts';
import { registerDeprecations } from '../shared/plugins/deprecation.ts';
import { registerDocsPage, registerOpenApi } from '../shared/plugins/openapi.ts';
import { PUBLIC_EXAMPLES } from '../shared/schemas/examples/index.ts';
import { PUBLIC_WEBHOOKS } from '../shared/schemas/webhooks.ts';
import type { IdempotentRequests } from './idempotent-requests.ts';
import { addressRoutes } from './routes/addresses/index.ts';
import { emissionRoutes } from './routes/emissions/index.ts';
import { eventTypesRoute } from './routes/event-types/index.ts';
import { invoiceRoutes } from './routes/invoices/index.ts';
import { labelRoutes } from './routes/labels/index.ts';
import { getMeRoute } from './routes/me/index.ts';
import { orderRoutes } from './routes/orders/index.ts';
import { pickupRoutes } from './routes/pickups/index.ts';
import { postRatesRoute } from './routes/rates/index.ts';
import { pingRoute } from './routes/system/index.ts';
import { webhookSubscriptionRoutes } from './routes/webhook-subscriptions/index.ts';
import { PUBLIC_PREFIX, publicServerUrl } from './server-url.ts';

// Defined apart (server-url.ts) so that printing the address does not load the routes.
export { PUBLIC_PREFIX } from './server-url.ts';

/**
 * What the public API's routes use, and no more: each route module declares its own part, and
 * the compiler checks that this one covers them all.
 */
interface PublicApiContext {
  config: Config;
  orders: OrderService;
  addressValidator: AddressValidator;
  proofs: ProofService;
  simulation: SimulationService;
  pickups: PickupService;
  idempotentRequests: IdempotentRequests;
  /** A test order and its scenario's first step, in one transaction. */
  transact: Transact;
  invoices: InvoiceService;
  emissions: EmissionService;
  labels: LabelService;
  rates: RateService;
  subscriptions: WebhookSubscriptions;
  links: OrderLinks;
}

/** Each resource registers its own routes; their order is the OpenAPI document's. */
const RESOURCES: ReadonlyArray<(app: TypedApp, deps: PublicApiContext) => void> = [
  pingRoute,
  getMeRoute,
  postRatesRoute,
  addressRoutes,
  orderRoutes,
  labelRoutes,
  pickupRoutes,
  invoiceRoutes,
  emissionRoutes,
  webhookSubscriptionRoutes,
  eventTypesRoute,
];

/** Where the `Link: rel="deprecation"` of a deprecated route's answers points (docs/versioning.md). */
const DEPRECATION_POLICY_URL = '/public/v1/docs';

/** The public API (`/public/v1`): brands' API keys, its OpenAPI document and docs page. */
export function publicApi(deps: PublicApiContext) {
  return async (api: FastifyInstance) => {
    await registerOpenApi(api, {
      title: 'Delivery Orders API',
      description:
        'Create and track last-mile delivery orders in Île-de-France, read invoices and quote rates at checkout. ' +
        'Authenticate with `Authorization: Bearer dlv_…`. Errors share one envelope: `{ ok: false, error, message, request_id }`.',
      serverUrl: publicServerUrl(deps),
      tags: [
        { name: 'System', description: 'Health and description of the API.' },
        { name: 'Account', description: 'The calling brand and key.' },
        { name: 'Orders', description: 'Delivery orders: create, list, track, complete, cancel.' },
        { name: 'Labels', description: 'Parcel labels: PDF (A6, 4×6 in) or ZPL II, one order or a batch.' },
        {
          name: 'Pickups',
          description:
            'Daily collections at the pickup address: the parcels in each, a collection asked for, the handover manifest.',
        },
        { name: 'Rates', description: 'Quotes at checkout.' },
        {
          name: 'Addresses',
          description:
            'Delivery addresses checked before ordering: where they are, served or not, their sort code.',
        },
        {
          name: 'Invoices',
          description: 'Monthly invoices: running draft, issued, paid; with lines and PDF.',
        },
        {
          name: 'Emissions',
          description:
            '**Extension.** Greenhouse gases of the deliveries (Code des transports L1431-3): the monthly statement, JSON, CSV and PDF.',
        },
        {
          name: 'Webhook subscriptions',
          description:
            'Self-service webhooks for automation tools (Zapier, Make, n8n): subscribe a URL to events, unsubscribe. ' +
            'Opened to a brand by the operator on request; deliveries are described under `webhooks`.',
        },
      ],
      securityScheme: { name: 'bearerAuth', description: 'An API key `dlv_` + 64 hex characters.' },
      webhooks: PUBLIC_WEBHOOKS,
      internal: false,
      rateLimited: deps.config.rateLimitPerSecond > 0,
      examples: {
        operations: PUBLIC_EXAMPLES,
        unauthorizedMessage: 'The API key is unknown or has been revoked.',
      },
    });
    registerDeprecations(api, DEPRECATION_POLICY_URL);
    for (const register of RESOURCES) register(typed(api), deps);
    await registerDocsPage(api, PUBLIC_PREFIX, deps.config);
  };
}
