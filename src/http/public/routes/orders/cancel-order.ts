import type { OrderService } from '../../../../domain/orders/order-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { OrderResponse, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the route uses. */
interface CancelOrderContext {
  orders: OrderService;
}

export function cancelOrderRoute(app: TypedApp, deps: CancelOrderContext): void {
  app.post(
    '/orders/:trackingRef/cancel',
    {
      config: { auth: 'orders:write' },
      schema: {
        operationId: 'cancelOrder',
        summary: 'Cancel an order before pickup',
        description:
          'Allowed while the order is `awaiting_address` or `pending`; 422 `invalid_transition` afterwards. No body.',
        tags: ['Orders'],
        params: TrackingRefParams,
        response: { 200: OrderResponse, ...errorResponses([400, 401, 403, 404, 413, 415, 422, 429]) },
      },
    },
    async (request) => {
      const order = await deps.orders.cancel(principalOf(request).brand.id, request.params.trackingRef);
      return { ok: true as const, order: deps.orders.detailJson(order) };
    },
  );
}
