import { Type } from '@sinclair/typebox';
import type { OrderService } from '../../../../domain/orders/order-service.ts';
import { FAILURE_REASONS } from '../../../../domain/scans/ports.ts';
import { SIMULATED_STEPS, type SimulationService } from '../../../../domain/test-mode/simulation.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { OrderResponse, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the route uses. */
interface SimulateOrderContext {
  orders: Pick<OrderService, 'detailJson'>;
  simulation: SimulationService;
}

const SimulateRequest = Type.Object(
  {
    to: Type.Union(
      SIMULATED_STEPS.map((s) => Type.Literal(s)),
      { description: 'The step the test order moves to, as a courier scan would move it.' },
    ),
    reason: Type.Optional(
      Type.Union(
        FAILURE_REASONS.map((r) => Type.Literal(r)),
        { description: 'With `to: failed_attempt` only: why the door failed (default `absent`).' },
      ),
    ),
  },
  { additionalProperties: false },
);

export function simulateOrderRoute(app: TypedApp, deps: SimulateOrderContext): void {
  app.post(
    '/orders/:trackingRef/simulate',
    {
      config: { auth: 'orders:write' },
      schema: {
        operationId: 'simulateOrder',
        summary: 'Move a test order one step (test mode)',
        description:
          '**Extension.** Test keys only (`dlv_test_…`; a live key gets 403 `test_mode_only`). Moves the test order ' +
          'as the street would: the same status change, events, webhooks (with `livemode: false`) and recipient ' +
          'notifications (to the development outbox) as a courier scan. `delivered` attaches a sample proof of ' +
          'delivery (received by "Test recipient (simulated)"); a third `failed_attempt` returns the parcel. ' +
          "A step that does not follow the order's status: 409 `simulation_out_of_order`. See docs/test-mode.md.",
        tags: ['Orders'],
        params: TrackingRefParams,
        body: SimulateRequest,
        response: { 200: OrderResponse, ...errorResponses([400, 401, 403, 404, 409, 413, 415, 422, 429]) },
      },
    },
    async (request) => {
      const { brand } = principalOf(request);
      const order = await deps.simulation.simulate(brand, request.params.trackingRef, request.body);
      return { ok: true as const, order: deps.orders.detailJson(order) };
    },
  );
}
