import type { FastifyInstance } from 'fastify';
import type { ProofDeliveries } from '../../domain/proofs/proof-deliveries.ts';
import { authorOf } from '../shared/author.ts';
import { courierOf } from '../shared/principal.ts';
import { readProofUpload, registerProofMultipart } from '../shared/proof-upload.ts';
import { COURIER_ONLY } from './session.ts';

/** What the courier app's delivery route uses. */
interface CourierDeliveriesContext {
  deliveries: ProofDeliveries;
}

/**
 * `POST /courier/api/v1/deliveries` (decision 0006): the courier app's door scan with its photo
 * and signature (multipart: `scan`, `photo`, `signature`), courier session and CSRF token
 * (`x-csrf-token`) as every call of the app. The answer is the scan's result, as one scan of
 * `POST /courier/api/v1/scans`; sent again with the same scan id, the stored answer.
 */
export function courierDeliveryRoutes(deps: CourierDeliveriesContext) {
  return async (scope: FastifyInstance) => {
    await registerProofMultipart(scope);
    scope.post('/api/v1/deliveries', COURIER_ONLY, async (request) => {
      const { courier } = courierOf(request);
      const { scan, files } = await readProofUpload(request);
      return deps.deliveries.deliver(
        { courierId: courier.id, locale: courier.locale, by: authorOf(request) },
        scan,
        files,
      );
    });
  };
}
