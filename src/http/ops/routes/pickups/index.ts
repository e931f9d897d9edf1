import { Type } from '@sinclair/typebox';
import { pickupJson } from '../../../../domain/pickups/pickup-json.ts';
import type { PickupService } from '../../../../domain/pickups/pickup-service.ts';
import type { TypedApp } from '../../../shared/app-types.ts';
import { authorOf } from '../../../shared/author.ts';
import {
  ClosePickupBody,
  OpsPickupListQuery,
  PickupIdParams,
  PickupSchema,
} from '../../../shared/schemas/pickups.ts';
import { errorResponses, PrefixedId } from '../../../shared/schemas/shared.ts';

const OpsPickupResponse = Type.Object({
  ok: Type.Literal(true),
  brand_id: PrefixedId('brd', 16),
  pickup: Type.Ref(PickupSchema),
});

const OpsPickupListResponse = Type.Object({
  ok: Type.Literal(true),
  pickups: Type.Array(Type.Object({ brand_id: PrefixedId('brd', 16), pickup: Type.Ref(PickupSchema) }), {
    maxItems: 1000,
  }),
});

/** What the operator's pickup routes use. */
interface OpsPickupsRouteContext {
  pickups: PickupService;
}

/** The operator's pickups: the day's list, and the closing with what the courier scanned. */
export function opsPickupRoutes(app: TypedApp, deps: OpsPickupsRouteContext): void {
  app.get(
    '/pickups',
    {
      config: { auth: { ops: 'pickups:read' } },
      schema: {
        operationId: 'opsListPickups',
        summary: "A day's pickups, every brand's or one brand's",
        tags: ['Operations'],
        querystring: OpsPickupListQuery,
        response: { 200: OpsPickupListResponse, ...errorResponses([400, 401]) },
      },
    },
    async (request) => {
      const pickups = await deps.pickups.listAny({ date: request.query.date, brandId: request.query.brand });
      return {
        ok: true as const,
        pickups: pickups.map((p) => ({ brand_id: p.brandId, pickup: pickupJson(p) })),
      };
    },
  );

  app.post(
    '/pickups/:pickupId/close',
    {
      config: { auth: { ops: 'pickups:write' } },
      schema: {
        operationId: 'opsClosePickup',
        summary: 'Close a pickup with the parcels the courier scanned',
        description:
          'Scanned parcels become `picked_up` (as a scan would move them, with their webhooks); the others stay `pending`, ' +
          "are listed missing and join the next business day's pickup. The pickup becomes `collected`, " +
          '`partially_collected` or `missed`, and `pickup.completed` is sent. A reference not in the pickup is a 422 ' +
          '`not_in_pickup` naming it, and nothing changes; before 12:00 (Paris) on its day, 422 `pickup_not_due`; ' +
          'closing twice, 409 `pickup_closed`.',
        tags: ['Operations'],
        params: PickupIdParams,
        body: ClosePickupBody,
        response: { 200: OpsPickupResponse, ...errorResponses([400, 401, 404, 409, 413, 415, 422]) },
      },
    },
    async (request) => {
      const pickup = await deps.pickups.close(
        request.params.pickupId,
        request.body.scanned,
        authorOf(request),
      );
      return { ok: true as const, brand_id: pickup.brandId, pickup: pickupJson(pickup) };
    },
  );
}
