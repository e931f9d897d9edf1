import type { OrderService } from '../../../../domain/orders/order-service.ts';
import { normaliseTrackingRef } from '../../../../domain/orders/tracking-ref.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { absentBodyIsEmpty } from '../../../shared/optional-body.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { IdempotencyHeaders, OrderResponse, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses, NoBody } from '../../../shared/schemas/shared.ts';
import { idempotencyScope, markReplayed } from '../../idempotency-key.ts';
import type { IdempotentRequests } from '../../idempotent-requests.ts';

/** What the route uses. */
interface CancelOrderContext {
  orders: OrderService;
  idempotentRequests: IdempotentRequests;
}

export function cancelOrderRoute(app: TypedApp, deps: CancelOrderContext): void {
  app.post(
    '/orders/:trackingRef/cancel',
    {
      config: { auth: 'orders:write' },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'cancelOrder',
        summary: 'Cancel an order before pickup',
        description:
          'Allowed while the order is `awaiting_address` or `pending`; 422 `invalid_transition` afterwards. ' +
          'Cancelling an order already cancelled answers 200 with the order as it is, and changes nothing ' +
          '(no event is sent again). No body (or `{}`; a field is a 400). ' +
          'Send an `Idempotency-Key` to retry safely: the first response is replayed with `Idempotent-Replayed: true`.',
        tags: ['Orders'],
        headers: IdempotencyHeaders,
        params: TrackingRefParams,
        body: NoBody,
        response: { 200: OrderResponse, ...errorResponses([400, 401, 403, 404, 409, 413, 415, 422, 429]) },
      },
    },
    async (request, reply) => {
      const brandId = principalOf(request).brand.id;
      const { trackingRef } = request.params;
      // Any spelling of the same reference is the same request.
      const scope = idempotencyScope(request, 'POST /orders/{trackingRef}/cancel', {
        trackingRef: normaliseTrackingRef(trackingRef) ?? trackingRef,
      });
      const answer = (order: Awaited<ReturnType<OrderService['cancel']>>) => ({
        ok: true as const,
        order: deps.orders.detailJson(order),
      });
      // Without a key, the service's own retry when another change races the cancellation.
      if (scope.key === null) return answer(await deps.orders.cancel(brandId, trackingRef));
      const result = await deps.idempotentRequests.run(
        scope,
        () => deps.orders.prepareCancel(brandId, trackingRef),
        async (tx, prepared) => ({
          statusCode: 200,
          body: answer(await deps.orders.applyChange(prepared, tx ?? undefined)),
        }),
      );
      markReplayed(reply, result);
      return reply.status(200).send(result.body as ReturnType<typeof answer>);
    },
  );
}
