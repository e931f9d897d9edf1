import { pickupJson } from '../../../../domain/pickups/pickup-json.ts';
import type { PickupService } from '../../../../domain/pickups/pickup-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { IdempotencyHeaders } from '../../../shared/schemas/orders.ts';
import {
  PickupIdParams,
  PickupListQuery,
  PickupListResponse,
  PickupRequestBody,
  PickupResponse,
} from '../../../shared/schemas/pickups.ts';
import { errorResponses, PDF_DOCUMENT_RESPONSE } from '../../../shared/schemas/shared.ts';
import { parseIdempotencyKey, requestFingerprint } from '../../idempotency-key.ts';
import type { IdempotentRequests } from '../../idempotent-requests.ts';

/** What the pickup routes use. */
interface PickupsRouteContext {
  pickups: PickupService;
  idempotentRequests: IdempotentRequests;
}

/** The brand's pickups (SPEC §10): list, ask for one, read one, print its manifest. */
export function pickupRoutes(app: TypedApp, deps: PickupsRouteContext): void {
  app.get(
    '/pickups',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'listPickups',
        summary: "List the brand's pickups",
        description:
          'One pickup per pickup address and business day. Orders created before 12:00 (Paris) on a business day join ' +
          "that day's pickup, later ones the next business day's. Without `date`: the last 7 days' and the upcoming ones.",
        tags: ['Pickups'],
        querystring: PickupListQuery,
        response: { 200: PickupListResponse, ...errorResponses([400, 401, 403, 429]) },
      },
    },
    async (request) => {
      const pickups = await deps.pickups.list(principalOf(request).brand.id, request.query);
      return { ok: true as const, pickups: pickups.map(pickupJson) };
    },
  );

  app.post(
    '/pickups',
    {
      config: { auth: 'orders:write' },
      schema: {
        operationId: 'requestPickup',
        summary: 'Ask for a collection on a business day',
        description:
          "At the brand's pickup address, on a business day (not a weekend nor a French public holiday), not in the past, " +
          'today only before 12:00 Paris time; window 14:00–18:00 unless given (08:00–19:00, at least 2 hours). ' +
          'Asking again for the same day changes its window. Send an `Idempotency-Key` to retry safely.',
        tags: ['Pickups'],
        headers: IdempotencyHeaders,
        body: PickupRequestBody,
        response: { 200: PickupResponse, ...errorResponses([400, 401, 403, 409, 413, 415, 422, 429]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const result = await deps.idempotentRequests.run(
        {
          brandId: principal.brand.id,
          key,
          fingerprint: () => requestFingerprint('POST /pickups', request.body),
        },
        async () => deps.pickups.prepareRequest(principal.brand, request.body),
        async (tx, prepared) => {
          const pickup = await deps.pickups.saveRequest(prepared, tx?.pickups);
          return { statusCode: 200, body: { ok: true, pickup: pickupJson(pickup) } };
        },
      );
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(200).send(result.body as { ok: true; pickup: ReturnType<typeof pickupJson> });
    },
  );

  app.get(
    '/pickups/:pickupId',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'getPickup',
        summary: 'One pickup, with its parcels and the missing ones',
        tags: ['Pickups'],
        params: PickupIdParams,
        response: { 200: PickupResponse, ...errorResponses([400, 401, 403, 404, 429]) },
      },
    },
    async (request) => {
      const pickup = await deps.pickups.get(principalOf(request).brand.id, request.params.pickupId);
      return { ok: true as const, pickup: pickupJson(pickup) };
    },
  );

  app.get(
    '/pickups/:pickupId/manifest',
    {
      config: { auth: 'orders:read' },
      schema: {
        operationId: 'getPickupManifest',
        summary: 'The handover manifest (bordereau de remise) as a PDF',
        description:
          'Every parcel of the pickup with its Code 128 barcode, reference, destination, weight and units; the totals; ' +
          "boxes for the courier's and the brand's names, times and signatures. A4, as many pages as needed.",
        tags: ['Pickups'],
        params: PickupIdParams,
        response: {
          200: PDF_DOCUMENT_RESPONSE,
          ...errorResponses([400, 401, 403, 404, 429]),
        },
      },
    },
    async (request, reply) => {
      const { pickup, pdf } = await deps.pickups.manifest(
        principalOf(request).brand.id,
        request.params.pickupId,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="manifest-${pickup.date}-${pickup.id}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
}
