import type { Deps } from '../../../deps.ts';
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
    async (request, reply) => {
      const page = await deps.orders.listJson(principalOf(request).brand.id, request.query);
      // The orders arrive as JSON text (rendered by PostgreSQL): the page is assembled around them
      // rather than parsed and serialized again. A JSON string payload is sent as it is (hence the
      // cast: the typed reply expects the object the schema describes); the fuzz suite checks it.
      const cursor = page.nextCursor === null ? 'null' : `"${page.nextCursor}"`;
      const body = `{"ok":true,"orders":[${page.orders.join(',')}],"next_cursor":${cursor}}`;
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );
}
