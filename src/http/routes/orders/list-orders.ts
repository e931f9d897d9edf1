import type { Deps } from '../../../deps.ts';
import { orderJson } from '../../../domain/orders/order-json.ts';
import type { PublicApp } from '../../app-types.ts';
import { principalOf } from '../../plugins/auth.ts';
import { OrderListQuery, OrderListResponse } from '../../schemas/orders.ts';
import { errorResponses } from '../../schemas/shared.ts';

export function listOrdersRoute(app: PublicApp, deps: Deps): void {
  app.get(
    '/orders',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'listOrders',
        summary: "List the brand's orders, newest first",
        tags: ['Orders'],
        querystring: OrderListQuery,
        response: { 200: OrderListResponse, ...errorResponses([400, 401, 403, 429]) },
      },
    },
    async (request) => {
      const page = await deps.orders.list(principalOf(request).brand.id, request.query);
      return {
        ok: true as const,
        orders: page.orders.map((o) => orderJson(o)),
        next_cursor: page.nextCursor,
      };
    },
  );
}
