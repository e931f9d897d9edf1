import type { OrderService } from '../../../../domain/orders/order-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { sendJsonText } from '../../../shared/json-text.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { OrderListQuery, OrderListResponse } from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the route uses. */
interface ListOrdersContext {
  orders: OrderService;
}

export function listOrdersRoute(app: TypedApp, deps: ListOrdersContext): void {
  app.get(
    '/orders',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'listOrders',
        summary: "List the brand's orders, newest first, or by last change (polling)",
        description:
          'Newest first by default. With `sort=updated_at` (and `updated_after`), the change feed a polling ' +
          'integration (Zapier, Make, n8n, a bridge) reads to see every order change once, oldest first.',
        tags: ['Orders'],
        querystring: OrderListQuery,
        response: { 200: OrderListResponse, ...errorResponses([400, 401, 403, 429]) },
      },
    },
    async (request, reply) => {
      const page = await deps.orders.listJson(principalOf(request).brand.id, request.query);
      // The orders arrive as JSON text (stored with each order): the page is assembled around them
      // rather than parsed and serialized again. Cursors are base64url, safe inside a JSON string.
      const cursor = page.nextCursor === null ? 'null' : `"${page.nextCursor}"`;
      return sendJsonText(reply, `{"ok":true,"orders":[${page.orders.join(',')}],"next_cursor":${cursor}}`);
    },
  );
}
