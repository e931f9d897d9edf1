import type { Deps } from '../../../deps.ts';
import { orderDetailJson } from '../../../domain/orders/order-json.ts';
import type { PublicApp } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { OrderResponse, TrackingRefParams } from '../../schemas/orders.ts';
import { errorResponses } from '../../schemas/shared.ts';

export function getOrderRoute(app: PublicApp, deps: Deps): void {
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
    async (request) => {
      const order = await deps.orders.get(principalOf(request).brand.id, request.params.trackingRef);
      return { ok: true as const, order: orderDetailJson(order) };
    },
  );
}
