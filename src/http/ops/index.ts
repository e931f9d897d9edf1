import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Config } from '../../config.ts';
import type { AuditLog } from '../../domain/audit/audit-log.ts';
import type { BrandService } from '../../domain/brands/brand-service.ts';
import type { CourierService } from '../../domain/couriers/courier-service.ts';
import type { EInvoiceTransmissionService } from '../../domain/einvoicing/transmission-service.ts';
import type { FleetService } from '../../domain/fleet/fleet-service.ts';
import type { InvoiceService } from '../../domain/invoices/invoice-service.ts';
import type { OperatorService } from '../../domain/operators/operator-service.ts';
import type { OperatorSessions } from '../../domain/operators/operator-sessions.ts';
import type { OpsTokenService } from '../../domain/operators/ops-token-service.ts';
import { ROLE_SCOPES } from '../../domain/operators/scopes.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { PickupService } from '../../domain/pickups/pickup-service.ts';
import type { GridService } from '../../domain/pricing/grid-service.ts';
import type { ProofDeliveries } from '../../domain/proofs/proof-deliveries.ts';
import type { RoundService } from '../../domain/rounds/round-service.ts';
import type { ScanService } from '../../domain/scans/scan-service.ts';
import { typed } from '../shared/app-types.ts';
import { OPS_UNAUTHORIZED_MESSAGE, WRONG_OPS_TOKENS_MESSAGE } from '../shared/operator-access.ts';
import { type OperatorRequirement, OWN_SESSION_ONLY } from '../shared/operator-requirements.ts';
import { registerDocsPage, registerOpenApi } from '../shared/plugins/openapi.ts';
import { OPS_EXAMPLES } from '../shared/schemas/examples/index.ts';
import { errorResponses } from '../shared/schemas/shared.ts';
import { opsAuditRoutes } from './routes/audit.ts';
import { opsBrandRoutes } from './routes/brands.ts';
import { opsCourierRoutes } from './routes/couriers.ts';
import { opsFleetRoutes } from './routes/fleet.ts';
import { opsGridRoutes } from './routes/grids.ts';
import { opsInvoiceRoutes } from './routes/invoices.ts';
import { opsOperatorRoutes } from './routes/operators.ts';
import { opsOrderRoutes } from './routes/orders/index.ts';
import { opsPickupRoutes } from './routes/pickups/index.ts';
import { opsProofRoutes } from './routes/proofs/index.ts';
import { opsRoundRoutes } from './routes/rounds.ts';
import { opsScanRoutes } from './routes/scans/index.ts';
import { opsSessionRoutes } from './routes/sessions.ts';
import { opsTokenRoutes } from './routes/tokens.ts';

export const OPS_PREFIX = '/ops/v1';

/** What the operations API's routes use. */
interface OpsApiContext {
  config: Config;
  orders: OrderService;
  pickups: PickupService;
  couriers: CourierService;
  rounds: RoundService;
  fleet: FleetService;
  scans: ScanService;
  deliveries: ProofDeliveries;
  brands: BrandService;
  invoices: InvoiceService;
  einvoices: Pick<EInvoiceTransmissionService, 'details'>;
  grids: GridService;
  operators: OperatorService;
  operatorSessions: OperatorSessions;
  opsTokens: OpsTokenService;
  audit: AuditLog;
}

const ROLES_TABLE = Object.entries(ROLE_SCOPES)
  .map(([role, scopes]) => `\`${role}\`: ${scopes.map((s) => `\`${s}\``).join(', ')}.`)
  .join(' ');

/**
 * The operations API (`/ops/v1`): the operator's people (their sessions), tools (machine tokens) and
 * the bootstrap OPS_TOKEN; every route declares the scope it needs.
 */
export function opsApi(deps: OpsApiContext) {
  return async (ops: FastifyInstance) => {
    ops.addHook('onRoute', describeOperatorRefusals);
    await registerOpenApi(ops, {
      title: 'Delivery Orders — operations API',
      description:
        "For the operator's people and tools: read any order and move it through its states, couriers and rounds, scans, pickups, " +
        'invoices and grids, brands, and the people and tokens themselves. Authenticate with `Authorization: Bearer <token>`: ' +
        'an operator’s session token (`POST /sessions` with e-mail, password and TOTP code), a machine token (`dlv_ops_…`, ' +
        '`dlv ops-tokens create`), or the bootstrap `OPS_TOKEN` (every scope: create the first admin and tokens with it, then unset it). ' +
        'Each operation names the scope it needs (`x-required-scope`); a person holds their role’s: ' +
        ROLES_TABLE +
        ' Missing, wrong, revoked or expired credentials: 401; a credential without the scope: 403 `insufficient_scope` naming it.',
      serverUrl: `${deps.config.publicBaseUrl ?? `http://${deps.config.host}:${deps.config.port}`}${OPS_PREFIX}`,
      tags: [
        { name: 'Operations', description: 'Order status changes and pickups.' },
        { name: 'Couriers and rounds', description: "The operator's couriers and the day's rounds." },
        {
          name: 'Fleet',
          description: 'The hubs, the vehicles and the couriers’ shifts the optimiser plans with.',
        },
        {
          name: 'Invoices and grids',
          description:
            "Billing and prices, for the finance people: issuing and payment, the e-invoices' transmission, what a brand's invoices need of its company data, price grids.",
        },
        { name: 'Brands', description: 'The brands the operator delivers for.' },
        {
          name: 'People and tokens',
          description: 'Sign-in and the second factor; the operators and the machine tokens, for admins.',
        },
        {
          name: 'Audit trail',
          description:
            "Every change by an operator, a token, the CLI or a courier, and every operator's read of a recipient's data: who, what, when, from where, what changed.",
        },
      ],
      securityScheme: {
        name: 'opsToken',
        description:
          'An operator’s session token (`dlv_sess_…`), a machine token (`dlv_ops_…`) or the bootstrap OPS_TOKEN. Each operation lists the scope it needs.',
      },
      // The operator's own tools: not rate limited (but for wrong tokens, per address), and not for brands.
      internal: true,
      rateLimited: false,
      examples: {
        operations: OPS_EXAMPLES,
        unauthorizedMessage: OPS_UNAUTHORIZED_MESSAGE,
        rateLimitedMessage: WRONG_OPS_TOKENS_MESSAGE,
        forbiddenMessage: (scope) =>
          scope === undefined
            ? OWN_SESSION_ONLY
            : `This machine token lacks the "${scope}" scope needed here; create a token with it (dlv ops-tokens create).`,
      },
    });
    opsOrderRoutes(typed(ops), deps);
    opsPickupRoutes(typed(ops), deps);
    opsCourierRoutes(typed(ops), deps);
    opsRoundRoutes(typed(ops), deps);
    opsFleetRoutes(typed(ops), deps);
    opsScanRoutes(typed(ops), deps);
    opsInvoiceRoutes(typed(ops), deps);
    opsGridRoutes(typed(ops), deps);
    opsBrandRoutes(typed(ops), deps);
    opsSessionRoutes(typed(ops), deps);
    opsOperatorRoutes(typed(ops), deps);
    opsTokenRoutes(typed(ops), deps);
    opsAuditRoutes(typed(ops), deps);
    // Its own scope: multipart is parsed there only.
    await ops.register(opsProofRoutes(deps));
    await registerDocsPage(ops, OPS_PREFIX, deps.config);
  };
}

const TOO_MANY_WRONG_TOKENS = errorResponses([429], {
  429: 'Too many wrong operator credentials from this address (`rate_limited`): every request from it is refused until `Retry-After`.',
})[429]!;
const UNAUTHORIZED = errorResponses([401], {
  401: 'Missing, malformed, unknown, revoked or expired credential (`unauthorized`): a session, a machine token or OPS_TOKEN.',
})[401]!;

/** What a 403 means for an operation needing `requirement`. */
function forbidden(requirement: OperatorRequirement) {
  const what =
    requirement === 'own_session'
      ? "A machine token or OPS_TOKEN: this is an operator's own session's operation (`insufficient_scope`)."
      : `A credential without \`${requirement}\`: a token created without it, a person whose role lacks it (\`insufficient_scope\`, naming it), ` +
        'or a setup session that has not chosen its password and enrolled its second factor yet (`setup_required`).';
  return errorResponses([403], { 403: what })[403]!;
}

/**
 * Every operation behind a credential may answer 429 once its address sent too many wrong ones, and
 * says what its 401 and 403 mean for operators.
 */
function describeOperatorRefusals(route: RouteOptions): void {
  const schema = route.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
  const auth = route.config?.auth;
  if (typeof auth !== 'object' || !('ops' in auth) || !schema?.response || schema.hide) return;
  // A 429 the route describes itself (failed sign-in attempts) keeps its words.
  const response: Record<string, unknown> = {
    ...schema.response,
    401: UNAUTHORIZED,
    429: schema.response[429] ?? TOO_MANY_WRONG_TOKENS,
  };
  if (auth.ops !== 'any') response[403] = forbidden(auth.ops);
  route.schema = { ...schema, response };
}
