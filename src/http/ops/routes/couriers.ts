import { Type } from '@sinclair/typebox';
import { courierJson } from '../../../domain/couriers/courier.ts';
import { type CourierService, ONE_TIME_PASSWORD_HOURS } from '../../../domain/couriers/courier-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { authorOf } from '../../shared/author.ts';
import { CourierIdParams, CourierSchema, NewCourierBody } from '../../shared/schemas/rounds.ts';
import { errorResponses, NullableString } from '../../shared/schemas/shared.ts';

const CourierResponse = Type.Object({ ok: Type.Literal(true), courier: CourierSchema });

/** The operator's couriers: list, add (a one-time password given once), a new one-time password, disable. */
export function opsCourierRoutes(app: TypedApp, deps: { couriers: CourierService }): void {
  app.get(
    '/couriers',
    {
      config: { auth: { ops: 'couriers:read' } },
      schema: {
        operationId: 'opsListCouriers',
        summary: 'The couriers, enabled first',
        tags: ['Couriers and rounds'],
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            couriers: Type.Array(CourierSchema, { maxItems: 10000 }),
          }),
          ...errorResponses([401]),
        },
      },
    },
    async () => ({ ok: true as const, couriers: (await deps.couriers.list()).map(courierJson) }),
  );

  app.post(
    '/couriers',
    {
      config: { auth: { ops: 'couriers:write' } },
      schema: {
        operationId: 'opsAddCourier',
        summary: 'Add a courier',
        description:
          'Without `password`, a one-time password is generated and given once (`one_time_password`); only its hash is kept. ' +
          `It opens one sign-in within ${ONE_TIME_PASSWORD_HOURS} hours, and that sign-in makes the courier choose their own password (\`must_choose_password\` until then). ` +
          'A given `password` is the courier’s own (one they chose): it follows the account area’s rules. An e-mail already a courier’s is a 400 naming `email`.',
        tags: ['Couriers and rounds'],
        body: NewCourierBody,
        response: {
          201: Type.Object({
            ok: Type.Literal(true),
            courier: CourierSchema,
            one_time_password: NullableString({ maxLength: 40 }),
          }),
          ...errorResponses([400, 401, 413, 415]),
        },
      },
    },
    async (request, reply) => {
      const { courier, oneTimePassword } = await deps.couriers.add(request.body, authorOf(request));
      return reply
        .code(201)
        .send({ ok: true as const, courier: courierJson(courier), one_time_password: oneTimePassword });
    },
  );

  app.post(
    '/couriers/:courierId/password',
    {
      config: { auth: { ops: 'couriers:write' } },
      schema: {
        operationId: 'opsResetCourierPassword',
        summary: 'Give a courier a new one-time password',
        description:
          `For a courier who forgot their password, or whose one-time password expired (${ONE_TIME_PASSWORD_HOURS} hours) or was used without choosing one. ` +
          'The courier’s sessions end and their password stops working; the new one-time password (given once) opens one sign-in, which makes them choose their own. ' +
          'A disabled courier: 422 `courier_disabled`.',
        tags: ['Couriers and rounds'],
        params: CourierIdParams,
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            courier: CourierSchema,
            one_time_password: Type.String({ maxLength: 40 }),
          }),
          ...errorResponses([400, 401, 404, 422]),
        },
      },
    },
    async (request) => {
      const { courier, oneTimePassword } = await deps.couriers.resetPassword(
        request.params.courierId,
        authorOf(request),
      );
      return { ok: true as const, courier: courierJson(courier), one_time_password: oneTimePassword };
    },
  );

  app.post(
    '/couriers/:courierId/disable',
    {
      config: { auth: { ops: 'couriers:write' } },
      schema: {
        operationId: 'opsDisableCourier',
        summary: 'Disable a courier',
        description:
          'Its sessions end at once; its rounds stay (reassign them). Disabling twice changes nothing.',
        tags: ['Couriers and rounds'],
        params: CourierIdParams,
        response: { 200: CourierResponse, ...errorResponses([400, 401, 404]) },
      },
    },
    async (request) => ({
      ok: true as const,
      courier: courierJson(await deps.couriers.disable(request.params.courierId, authorOf(request))),
    }),
  );
}
