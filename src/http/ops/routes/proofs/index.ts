import type { FastifyInstance } from 'fastify';
import type { ProofDeliveries } from '../../../../domain/proofs/proof-deliveries.ts';
import { negotiateLocale } from '../../../../i18n/locales.ts';
import { authorOf } from '../../../shared/author.ts';
import { readProofUpload, registerProofMultipart } from '../../../shared/proof-upload.ts';
import { TrackingRefParams } from '../../../shared/schemas/orders.ts';
import { ScanResultSchema } from '../../../shared/schemas/scans.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the operator's proof route uses. */
interface OpsProofRouteContext {
  deliveries: ProofDeliveries;
}

/**
 * `POST /ops/v1/orders/{ref}/proof`: a door outcome with its photo and signature, for an operator
 * whose couriers use another app (decision 0006). The same service as the courier app's deliveries.
 */
export function opsProofRoutes(deps: OpsProofRouteContext) {
  return async (scope: FastifyInstance) => {
    await registerProofMultipart(scope);
    scope.post<{ Params: { trackingRef: string } }>(
      '/orders/:trackingRef/proof',
      {
        config: { auth: { ops: 'scans:write' } },
        schema: {
          operationId: 'opsRecordProof',
          summary: 'Record a door outcome with its proof (photo, signature)',
          description:
            'multipart/form-data: `scan`, the door scan as JSON without `code` (`id` a UUID, `context`: "door", ' +
            '`happened_at` with its offset, `outcome`, `reason` for a failed attempt, `received_by`, `location`, and ' +
            'optionally `courier_id`); `photo` and `signature`, optional files: JPEG, PNG or WebP by their bytes, ≤ 10 MB ' +
            'each (413), decodable (422 `unreadable_image`), re-encoded without metadata before anything is stored. ' +
            'The answer is the scan result (`applied`, or `refused` with its code); a refused scan leaves no file. ' +
            'The same scan id again answers its stored result. See docs/proof-of-delivery.md.',
          tags: ['Operations'],
          consumes: ['multipart/form-data'],
          params: TrackingRefParams,
          response: {
            200: ScanResultSchema,
            ...errorResponses([400, 401, 404, 413, 415, 422]),
          },
        },
      },
      async (request) => {
        const { scan, files } = await readProofUpload(request);
        const wire =
          scan && typeof scan === 'object' && !Array.isArray(scan) ? (scan as Record<string, unknown>) : null;
        const { courier_id: courierId, ...rest } = wire ?? {};
        const locale = negotiateLocale(request.headers['accept-language'], { fallback: 'en' });
        return deps.deliveries.deliver(
          { courierId: typeof courierId === 'string' ? courierId : null, locale, by: authorOf(request) },
          wire ? { ...rest, code: request.params.trackingRef } : scan,
          files,
        );
      },
    );
  };
}
