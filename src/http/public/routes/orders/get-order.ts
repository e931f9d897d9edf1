import type { OrderService } from '../../../../domain/orders/order-service.ts';
import type { ProofService } from '../../../../domain/proofs/proof-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { sendJsonText } from '../../../shared/json-text.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { OrderDetailResponse, TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the route uses. */
interface GetOrderContext {
  orders: OrderService;
  proofs: Pick<ProofService, 'forOrder'>;
}

/**
 * Only an order that reached the door can have attempts (out_for_delivery again after a failed
 * one, failed_attempt, delivered, returned): the others answer without a second query. The
 * stored text's `"status":"…"` member is the only place those unescaped quotes can appear.
 */
const MAY_HAVE_ATTEMPTS = /"status":"(out_for_delivery|failed_attempt|delivered|returned)"/;
const NO_PROOF_TEXT = ',"proof_of_delivery":null,"failed_attempt":null}';

export function getOrderRoute(app: TypedApp, deps: GetOrderContext): void {
  app.get(
    '/orders/:trackingRef',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'getOrder',
        summary: 'Detail and tracking of one order',
        description:
          'The order, its history, and its proof of delivery (`proof_of_delivery`: time, who took the parcel, ' +
          'where, and links to the photo and the signature, valid 15 minutes) or its last failed attempt ' +
          '(`failed_attempt`). Lists carry neither.',
        tags: ['Orders'],
        params: TrackingRefParams,
        response: { 200: OrderDetailResponse, ...errorResponses([400, 401, 403, 404, 429]) },
      },
    },
    async (request, reply) => {
      // The text stored with the order (held equal to orderDetailJson by a test): the hottest read
      // builds no Order object and serialises nothing. The proof members are added at each answer:
      // their URLs are signed now and expire (never stored, decision 0002).
      const brandId = principalOf(request).brand.id;
      const json = await deps.orders.getDetailJson(brandId, request.params.trackingRef);
      let proof = NO_PROOF_TEXT;
      if (MAY_HAVE_ATTEMPTS.test(json)) {
        const members = await deps.proofs.forOrder(brandId, request.params.trackingRef);
        proof = `,"proof_of_delivery":${JSON.stringify(members.proof_of_delivery)},"failed_attempt":${JSON.stringify(members.failed_attempt)}}`;
      }
      return sendJsonText(reply, `{"ok":true,"order":${json.slice(0, -1)}${proof}}`);
    },
  );
}
