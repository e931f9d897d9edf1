import type { OrderService } from '../../../../domain/orders/order-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { OrderPatchRequest, OrderResponse, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the route uses. */
interface UpdateOrderContext {
  orders: OrderService;
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
          'like at creation; completing the address of an order `awaiting_address` makes it `pending`.',
        tags: ['Orders'],
        params: TrackingRefParams,
        body: OrderPatchRequest,
        response: { 200: OrderResponse, ...errorResponses([400, 401, 403, 404, 413, 415, 422, 429]) },
      },
    },
    async (request) => {
      const order = await deps.orders.update(
        principalOf(request).brand.id,
        request.params.trackingRef,
        request.body,
      );
      return { ok: true as const, order: deps.orders.detailJson(order) };
    },
  );
}
