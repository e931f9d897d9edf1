import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Config } from '../../config.ts';
import type { AuditLog } from '../../domain/audit/audit-log.ts';
import type { CourierService } from '../../domain/couriers/courier-service.ts';
import type { OrderService } from '../../domain/orders/order-service.ts';
import type { PickupService } from '../../domain/pickups/pickup-service.ts';
import type { ProofDeliveries } from '../../domain/proofs/proof-deliveries.ts';
import type { RoundService } from '../../domain/rounds/round-service.ts';
import type { ScanService } from '../../domain/scans/scan-service.ts';
import { typed } from '../shared/app-types.ts';
import { OPS_UNAUTHORIZED_MESSAGE, WRONG_OPS_TOKENS_MESSAGE } from '../shared/operator-access.ts';
import { registerDocsPage, registerOpenApi } from '../shared/plugins/openapi.ts';
import { OPS_EXAMPLES } from '../shared/schemas/examples/index.ts';
import { errorResponses } from '../shared/schemas/shared.ts';
import { opsAuditRoutes } from './routes/audit.ts';
import { opsCourierRoutes } from './routes/couriers.ts';
import { opsOrderRoutes } from './routes/orders/index.ts';
import { opsPickupRoutes } from './routes/pickups/index.ts';
import { opsProofRoutes } from './routes/proofs/index.ts';
import { opsRoundRoutes } from './routes/rounds.ts';
import { opsScanRoutes } from './routes/scans/index.ts';

export const OPS_PREFIX = '/ops/v1';

/** What the operations API's routes use. */
interface OpsApiContext {
  config: Config;
  orders: OrderService;
  pickups: PickupService;
  couriers: CourierService;
  rounds: RoundService;
  scans: ScanService;
  deliveries: ProofDeliveries;
  audit: AuditLog;
}

/** The operations API (`/ops/v1`, the operator's OPS_TOKEN): exists only when a token is set. */
export function opsApi(deps: OpsApiContext) {
  return async (ops: FastifyInstance) => {
    ops.addHook('onRoute', describeWrongTokenLimit);
    await registerOpenApi(ops, {
      title: 'Delivery Orders — operations API',
      description:
        "For the operator's tools (couriers' scanners): read any order and move it through its states. Authenticate with `Authorization: Bearer <OPS_TOKEN>`.",
      serverUrl: `${deps.config.publicBaseUrl ?? `http://${deps.config.host}:${deps.config.port}`}${OPS_PREFIX}`,
      tags: [
        { name: 'Operations', description: 'Order status changes and pickups.' },
        { name: 'Couriers and rounds', description: "The operator's couriers and the day's rounds." },
        {
          name: 'Audit trail',
          description:
            "Every change by an operator, a token, the CLI or a courier, and every operator's read of a recipient's data: who, what, when, from where, what changed.",
        },
      ],
      securityScheme: { name: 'opsToken', description: 'The OPS_TOKEN of the deployment.' },
      // The operator's own tools: not rate limited (but for wrong tokens, per address), and not for brands.
      internal: true,
      rateLimited: false,
      examples: {
        operations: OPS_EXAMPLES,
        unauthorizedMessage: OPS_UNAUTHORIZED_MESSAGE,
        rateLimitedMessage: WRONG_OPS_TOKENS_MESSAGE,
      },
    });
    opsOrderRoutes(typed(ops), deps);
    opsPickupRoutes(typed(ops), deps);
    opsCourierRoutes(typed(ops), deps);
    opsRoundRoutes(typed(ops), deps);
    opsScanRoutes(typed(ops), deps);
    opsAuditRoutes(typed(ops), deps);
    // Its own scope: multipart is parsed there only.
    await ops.register(opsProofRoutes(deps));
    await registerDocsPage(ops, OPS_PREFIX, deps.config);
  };
}

const TOO_MANY_WRONG_TOKENS = errorResponses([429], {
  429: 'Too many wrong operator tokens from this address (`rate_limited`): every request from it is refused until `Retry-After`.',
})[429]!;

/** Every operation behind the token may answer 429 once its address sent too many wrong ones. */
function describeWrongTokenLimit(route: RouteOptions): void {
  const schema = route.schema as { hide?: boolean; response?: Record<string, unknown> } | undefined;
  if (route.config?.auth !== 'ops' || !schema?.response || schema.hide) return;
  route.schema = { ...schema, response: { ...schema.response, 429: TOO_MANY_WRONG_TOKENS } };
}
