import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pickupJson } from '../../domain/pickups/pickup-json.ts';
import type { ScanService } from '../../domain/scans/scan-service.ts';
import { authorOf } from '../shared/author.ts';
import { courierOf } from '../shared/principal.ts';
import { scansBody } from '../shared/scans-body.ts';
import { CourierScansBody, SCANS_BODY_LIMIT } from '../shared/schemas/scans.ts';

/** What the courier's scan routes use. */
interface CourierScanRoutesContext {
  scans: ScanService;
}

const COURIER_JSON = { auth: 'courier' as const };

/**
 * The app's scans (decision 0006): the offline queue's plain scans, and the closing of a pickup
 * with what was scanned there. The courier is the session's; messages in its language.
 */
export function courierScanRoutes(area: FastifyInstance, deps: CourierScanRoutesContext): void {
  area.post(
    '/api/v1/scans',
    {
      config: COURIER_JSON,
      bodyLimit: SCANS_BODY_LIMIT,
      attachValidation: true,
      schema: { hide: true, body: CourierScansBody },
    },
    async (request: FastifyRequest) => {
      const { courier } = courierOf(request);
      const body = scansBody(request as FastifyRequest & { body: { scans: unknown } });
      const results = await deps.scans.apply(
        { courierId: courier.id, locale: courier.locale, by: authorOf(request) },
        body.scans,
      );
      return { ok: true as const, results };
    },
  );

  area.post(
    '/api/v1/pickups/:pickupId/close',
    { config: COURIER_JSON, schema: { hide: true } },
    async (request: FastifyRequest) => {
      const { courier } = courierOf(request);
      const { pickupId } = request.params as { pickupId: string };
      const pickup = await deps.scans.closePickup(
        { courierId: courier.id, locale: courier.locale, by: authorOf(request) },
        pickupId,
      );
      return { ok: true as const, pickup: pickupJson(pickup) };
    },
  );
}
