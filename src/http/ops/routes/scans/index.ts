import type { FastifyRequest } from 'fastify';
import type { ScanService } from '../../../../domain/scans/scan-service.ts';
import { negotiateLocale } from '../../../../i18n/locales.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { authorOf } from '../../../shared/author.ts';
import { scansBody } from '../../../shared/scans-body.ts';
import { OpsScansBody, SCANS_BODY_LIMIT, ScansResponse } from '../../../shared/schemas/scans.ts';
import { errorResponses } from '../../../shared/schemas/shared.ts';

/** What the operator's scan route uses. */
interface OpsScansRouteContext {
  scans: ScanService;
}

/** Scans sent by the operator's tools, for couriers using another app than /courier (decision 0006). */
export function opsScanRoutes(app: TypedApp, deps: OpsScansRouteContext): void {
  app.post(
    '/scans',
    {
      config: { auth: { ops: 'scans:write' } },
      bodyLimit: SCANS_BODY_LIMIT,
      // The scans' own checks name `scans[3].happened_at`; the schema's errors come after them.
      attachValidation: true,
      schema: {
        operationId: 'opsApplyScans',
        summary: "Apply couriers' scans (idempotent by scan id, in the order they happened)",
        description:
          'Each scan moves its parcel as the courier app would (pickup → picked_up, hub → in_transit, loading → ' +
          'out_for_delivery, door → delivered or failed_attempt; the third failed attempt → returned). One result per ' +
          'scan, in the order given: `applied`, or `refused` with a code (unknown_code, wrong_round, already_delivered, ' +
          'order_cancelled, invalid_transition, proof_required, too_old, test_order) and a message; a refused scan changes nothing. ' +
          'A scan id already seen answers its stored result. A malformed scan refuses the whole request (400 naming ' +
          '`scans[i].field`), nothing applied. See docs/scans.md.',
        tags: ['Operations'],
        body: OpsScansBody,
        response: {
          200: ScansResponse,
          ...errorResponses([400, 401, 413, 415], { 413: 'Body larger than 512 KiB (`payload_too_large`).' }),
        },
      },
    },
    async (request: FastifyRequest & { body: { scans: unknown; courier_id?: string } }) => {
      const body = scansBody(request);
      const courierId = body.courier_id ?? null;
      const locale = negotiateLocale(request.headers['accept-language'], { fallback: 'en' });
      const results = await deps.scans.apply({ courierId, locale, by: authorOf(request) }, body.scans);
      return { ok: true as const, results };
    },
  );
}
