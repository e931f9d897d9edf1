import type { OrderService } from '../../../../domain/orders/order-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { sendJsonText } from '../../../shared/json-text.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { OrderResponse, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the route uses. */
interface GetOrderContext {
  orders: OrderService;
}

export function getOrderRoute(app: TypedApp, deps: GetOrderContext): void {
  app.get(
    '/orders/:trackingRef',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'getOrder',
        summary: 'Detail and tracking of one order',
        tags: ['Orders'],
        params: TrackingRefParams,
        response: { 200: OrderResponse, ...errorResponses([400, 401, 403, 404, 429]) },
      },
    },
    async (request, reply) => {
      // The text stored with the order (held equal to orderDetailJson by a test): the hottest read
      // builds no Order object and serialises nothing.
      const json = await deps.orders.getDetailJson(principalOf(request).brand.id, request.params.trackingRef);
      return sendJsonText(reply, `{"ok":true,"order":${json}}`);
    },
  );
}
