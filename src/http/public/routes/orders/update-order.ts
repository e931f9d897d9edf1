import type { OrderService } from '../../../../domain/orders/order-service.ts';
import { normaliseTrackingRef } from '../../../../domain/orders/tracking-ref.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import {
  IdempotencyHeaders,
  OrderPatchRequest,
  OrderResponse,
  TrackingRefParams,
} from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';
import { idempotencyScope, markReplayed } from '../../idempotency-key.ts';
import type { IdempotentRequests } from '../../idempotent-requests.ts';

/** What the route uses. */
interface UpdateOrderContext {
  orders: OrderService;
  idempotentRequests: IdempotentRequests;
}

export function updateOrderRoute(app: TypedApp, deps: UpdateOrderContext): void {
  app.patch(
    '/orders/:trackingRef',
    {
      config: { auth: 'orders:write' },
      schema: {
        operationId: 'updateOrder',
        summary: 'Complete or correct delivery details',
        description:
          'Allowed while the order is `awaiting_address` or `pending`. A new `delivery_address` is checked, priced and dated ' +
          'like at creation; completing the address of an order `awaiting_address` makes it `pending`. ' +
          'Send an `Idempotency-Key` to retry safely: the first response is replayed with `Idempotent-Replayed: true`.',
        tags: ['Orders'],
        headers: IdempotencyHeaders,
        params: TrackingRefParams,
        body: OrderPatchRequest,
        response: { 200: OrderResponse, ...errorResponses([400, 401, 403, 404, 409, 413, 415, 422, 429]) },
      },
    },
    async (request, reply) => {
      const brandId = principalOf(request).brand.id;
      const { trackingRef } = request.params;
      const result = await deps.idempotentRequests.run(
        idempotencyScope(request, 'PATCH /orders/{trackingRef}', {
          trackingRef: normaliseTrackingRef(trackingRef) ?? trackingRef,
          body: request.body,
        }),
        // The reads (the new address located and priced) before the key's transaction opens.
        () => deps.orders.prepareUpdate(brandId, trackingRef, request.body),
        async (tx, prepared) => ({
          statusCode: 200,
          body: {
            ok: true,
            order: deps.orders.detailJson(await deps.orders.applyChange(prepared, tx ?? undefined)),
          },
        }),
      );
      markReplayed(reply, result);
      return reply
        .status(200)
        .send(result.body as { ok: true; order: ReturnType<OrderService['detailJson']> });
    },
  );
}
