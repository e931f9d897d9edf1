import type { Static } from '@sinclair/typebox';
import type { Stores, Transact } from '../../../../db/stores.ts';
import type { OrderService } from '../../../../domain/orders/order-service.ts';
import { checkScenario, type Scenario } from '../../../../domain/test-mode/scenarios.ts';
import type { SimulationService } from '../../../../domain/test-mode/simulation.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { sendJsonText } from '../../../shared/json-text.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import {
  IdempotencyHeaders,
  OrderCreatedResponse,
  OrderCreateRequest,
} from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';
import { parseIdempotencyKey, requestFingerprint } from '../../idempotency-key.ts';
import type { IdempotentRequests } from '../../idempotent-requests.ts';

// Returned anonymous: a closure named per request costs a defineProperty under tsx (keepNames).
const fingerprintOf = (body: unknown) => () => requestFingerprint('POST /orders', body);

/**
 * The order as the response carries it, its scenario (a test order's) queued on `stores`: the
 * transaction's, which a scenario always has. A module function, not a closure made per request.
 */
async function insertOrder(
  deps: CreateOrderContext,
  prepared: Awaited<ReturnType<OrderService['prepare']>>,
  stores: Stores | null,
  scenario: Scenario | null,
) {
  // JSON text, from what the insert stored: the response schema's serializer would walk the order again.
  const { order, json } = await deps.orders.insertRendered(prepared, stores?.orders);
  if (scenario && stores)
    await deps.simulation.startScenario(
      { trackingRef: order.trackingRef, brandId: order.brandId },
      scenario,
      stores.jobQueue,
    );
  return { statusCode: 200, body: `{"ok":true,"trackingRef":"${order.trackingRef}","order":${json}}` };
}

/** What the route uses. */
interface CreateOrderContext {
  orders: OrderService;
  simulation: Pick<SimulationService, 'startScenario'>;
  idempotentRequests: IdempotentRequests;
  transact: Transact;
}

export function createOrderRoute(app: TypedApp, deps: CreateOrderContext): void {
  app.post(
    '/orders',
    {
      config: { auth: 'orders:write' },
      schema: {
        operationId: 'createOrder',
        summary: 'Create a delivery order',
        description:
          "Checks the destination (Île-de-France), prices the delivery from the brand's grid and fixes the promised date. " +
          'Without `delivery_address` the order waits in `awaiting_address` until completed with PATCH. ' +
          'Send an `Idempotency-Key` to retry safely: the first response is replayed with `Idempotent-Replayed: true`.',
        tags: ['Orders'],
        headers: IdempotencyHeaders,
        body: OrderCreateRequest,
        response: {
          200: OrderCreatedResponse,
          // The 422 codes are listed with their examples (src/http/schemas/examples).
          ...errorResponses([400, 401, 403, 409, 413, 415, 422, 429]),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      // Checked first: a live key asking for a scenario leaves no trace.
      const scenario = checkScenario(request.body.test_scenario, principal.brand.livemode);
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const scope = {
        brandId: principal.brand.id,
        key,
        fingerprint: fingerprintOf(request.body),
      };
      const result = await deps.idempotentRequests.run(
        scope,
        () => deps.orders.prepare(principal.brand, request.body),
        (tx, prepared) =>
          // A test order's scenario is queued in the order's own transaction (the key's, or one
          // of its own): both are written, or neither.
          tx || !scenario
            ? insertOrder(deps, prepared, tx, scenario)
            : deps.transact((stores) => insertOrder(deps, prepared, stores, scenario)),
      );
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      // A replay sends back exactly what the first request received (stored as JSON, read back parsed).
      if (typeof result.body === 'string') return sendJsonText(reply.status(200), result.body);
      return reply.status(200).send(result.body as Static<typeof OrderCreatedResponse>);
    },
  );
}
