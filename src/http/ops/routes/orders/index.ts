import { Type } from '@sinclair/typebox';
import type { OrderService } from '../../../../domain/orders/order-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { authorOf } from '../../../shared/author.ts';
import { OrderSchema, OrderStatusSchema, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses, PrefixedId } from '../../../shared/schemas/shared.ts';

const OpsOrderResponse = Type.Object(
  { ok: Type.Literal(true), brand_id: PrefixedId('brd', 16), order: Type.Ref(OrderSchema) },
  { description: 'The order, whichever brand it belongs to.' },
);

const StatusChangeRequest = Type.Object(
  {
    status: OrderStatusSchema,
    note: Type.Optional(
      Type.String({ maxLength: 500, description: "Shown in the order's history, e.g. the courier scan." }),
    ),
  },
  { additionalProperties: false },
);

/** What the operator's order routes use. */
interface OpsOrdersRouteContext {
  orders: OrderService;
}

/** Operator routes for couriers' scanning tools: read any order, move it through its states. */
export function opsOrderRoutes(app: TypedApp, deps: OpsOrdersRouteContext): void {
  app.get(
    '/orders/:trackingRef',
    {
      config: { auth: { ops: 'orders:read' } },
      schema: {
        operationId: 'opsGetOrder',
        summary: "Any brand's order, with its history",
        description:
          "It holds the recipient's name, address, phone and e-mail: each read is recorded in the audit trail (`recipient.read`, the order's reference).",
        tags: ['Operations'],
        params: TrackingRefParams,
        response: { 200: OpsOrderResponse, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => {
      const order = await deps.orders.getAnyBrand(request.params.trackingRef, authorOf(request));
      return { ok: true as const, brand_id: order.brandId, order: deps.orders.detailJson(order) };
    },
  );

  app.post(
    '/orders/:trackingRef/status',
    {
      config: { auth: { ops: 'orders:write' } },
      schema: {
        operationId: 'opsSetOrderStatus',
        summary: 'Move an order to its next status',
        description:
          'Applies one allowed transition (e.g. pending → picked_up), appends it to the history and notifies the brand. ' +
          '422 `invalid_transition` otherwise; two simultaneous changes cannot both apply.',
        tags: ['Operations'],
        params: TrackingRefParams,
        body: StatusChangeRequest,
        response: { 200: OpsOrderResponse, ...errorResponses([400, 401, 404, 413, 415, 422]) },
      },
    },
    async (request) => {
      const order = await deps.orders.setStatus(
        request.params.trackingRef,
        request.body.status,
        request.body.note ?? null,
        authorOf(request),
      );
      return { ok: true as const, brand_id: order.brandId, order: deps.orders.detailJson(order) };
    },
  );
}
