import { Type } from '@sinclair/typebox';
import type { FleetService } from '../../../domain/fleet/fleet-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { authorOf } from '../../shared/author.ts';
import {
  HubSchema,
  NewHubBody,
  NewVehicleBody,
  ShiftBody,
  ShiftSchema,
  ShiftsQuery,
  VehicleIdParams,
  VehicleSchema,
} from '../../shared/schemas/fleet.ts';
import { errorResponses } from '../../shared/schemas/shared.ts';

const TAGS = ['Fleet'];
const CHECKED = 'Every bad field is a 400 naming it (all at once); nothing is written on a refusal.';

/** The fleet the optimiser plans with: hubs, vehicles, couriers' shifts (issue 37, docs/planning.md). */
export function opsFleetRoutes(app: TypedApp, deps: { fleet: FleetService }): void {
  app.get(
    '/hubs',
    {
      config: { auth: { ops: 'rounds:read' } },
      schema: {
        operationId: 'opsListHubs',
        summary: 'The hubs rounds start and end at',
        tags: TAGS,
        response: {
          200: Type.Object({ ok: Type.Literal(true), hubs: Type.Array(HubSchema, { maxItems: 10000 }) }),
          ...errorResponses([401]),
        },
      },
    },
    async () => ({ ok: true as const, hubs: await deps.fleet.listHubs() }),
  );

  app.post(
    '/hubs',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsAddHub',
        summary: 'Add a hub',
        description: `A point outside Île-de-France is a 400 naming \`lat\`; a name already a hub's, a 400 naming \`name\`. ${CHECKED}`,
        tags: TAGS,
        body: NewHubBody,
        response: {
          201: Type.Object({ ok: Type.Literal(true), hub: HubSchema }),
          ...errorResponses([400, 401, 413, 415]),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ ok: true as const, hub: await deps.fleet.addHub(request.body, authorOf(request)) }),
  );

  app.get(
    '/vehicles',
    {
      config: { auth: { ops: 'rounds:read' } },
      schema: {
        operationId: 'opsListVehicles',
        summary: 'The vehicles, in service first',
        tags: TAGS,
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            vehicles: Type.Array(VehicleSchema, { maxItems: 10000 }),
          }),
          ...errorResponses([401]),
        },
      },
    },
    async () => ({ ok: true as const, vehicles: await deps.fleet.listVehicles() }),
  );

  app.post(
    '/vehicles',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsAddVehicle',
        summary: 'Add a vehicle',
        description: `A capacity of 0 (parcels or kg), an unknown kind or hub: a 400 naming the field. ${CHECKED}`,
        tags: TAGS,
        body: NewVehicleBody,
        response: {
          201: Type.Object({ ok: Type.Literal(true), vehicle: VehicleSchema }),
          ...errorResponses([400, 401, 413, 415]),
        },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const vehicle = await deps.fleet.addVehicle(
        {
          name: b.name,
          kind: b.kind,
          capacityParcels: b.capacity_parcels,
          capacityKg: b.capacity_kg,
          hub: b.hub,
        },
        authorOf(request),
      );
      return reply.code(201).send({ ok: true as const, vehicle });
    },
  );

  app.post(
    '/vehicles/:vehicleId/disable',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsDisableVehicle',
        summary: 'Take a vehicle out of service',
        description: 'It keeps its past rounds and takes no new shift. Disabling it again changes nothing.',
        tags: TAGS,
        params: VehicleIdParams,
        response: {
          200: Type.Object({ ok: Type.Literal(true), vehicle: VehicleSchema }),
          ...errorResponses([400, 401, 404]),
        },
      },
    },
    async (request) => ({
      ok: true as const,
      vehicle: await deps.fleet.disableVehicle(request.params.vehicleId, authorOf(request)),
    }),
  );

  app.get(
    '/shifts',
    {
      config: { auth: { ops: 'rounds:read' } },
      schema: {
        operationId: 'opsListShifts',
        summary: "A day's shifts",
        tags: TAGS,
        querystring: ShiftsQuery,
        response: {
          200: Type.Object({ ok: Type.Literal(true), shifts: Type.Array(ShiftSchema, { maxItems: 10000 }) }),
          ...errorResponses([400, 401]),
        },
      },
    },
    async (request) => ({ ok: true as const, shifts: await deps.fleet.listShifts(request.query.date) }),
  );

  app.put(
    '/shifts',
    {
      config: { auth: { ops: 'rounds:write' } },
      schema: {
        operationId: 'opsSetShift',
        summary: "Set a courier's shift and vehicle for a day",
        description:
          'Replaces the courier’s shift of that day. A shift ending at or before its start is a 400 naming `ends_at`; an unknown ' +
          'courier or vehicle, or a vehicle another courier drives that day, a 400 naming it; a disabled courier, 422 `courier_disabled`. ' +
          CHECKED,
        tags: TAGS,
        body: ShiftBody,
        response: {
          200: Type.Object({ ok: Type.Literal(true), shift: ShiftSchema }),
          ...errorResponses([400, 401, 413, 415, 422]),
        },
      },
    },
    async (request) => {
      const b = request.body;
      const shift = await deps.fleet.setShift(
        {
          courier: b.courier_id,
          date: b.date,
          startsAt: b.starts_at,
          endsAt: b.ends_at,
          vehicle: b.vehicle_id,
          break: b.break ?? null,
        },
        authorOf(request),
      );
      return { ok: true as const, shift };
    },
  );
}
