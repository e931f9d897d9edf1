import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { operatorJson } from '../../../domain/operators/operator.ts';
import type { OperatorService } from '../../../domain/operators/operator-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { actedBy, requireOperator } from '../../shared/operator-requirements.ts';
import { absentBodyIsEmpty } from '../../shared/optional-body.ts';
import {
  NewOperatorBody,
  OperatorIdParams,
  OperatorResponse,
  OperatorSchema,
  OperatorWithPasswordResponse,
  RoleBody,
} from '../../shared/schemas/operators.ts';
import { errorResponses, NoBody } from '../../shared/schemas/shared.ts';

const TAGS = ['People and tokens'];
/** Who acts: the admin (or token, or OPS_TOKEN) the route let through. */
const by = (request: FastifyRequest) => actedBy(requireOperator(request, 'operators:write'));

/** The delivery company's people, managed by an admin (the same service as `dlv operators`). */
export function opsOperatorRoutes(app: TypedApp, deps: { operators: OperatorService }): void {
  app.get(
    '/operators',
    {
      config: { auth: { ops: 'operators:read' } },
      schema: {
        operationId: 'opsListOperators',
        summary: 'The operators, enabled first',
        tags: TAGS,
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            operators: Type.Array(OperatorSchema, { maxItems: 10000 }),
          }),
          ...errorResponses([401, 403]),
        },
      },
    },
    async () => ({ ok: true as const, operators: (await deps.operators.list()).map(operatorJson) }),
  );

  app.post(
    '/operators',
    {
      config: { auth: { ops: 'operators:write' } },
      schema: {
        operationId: 'opsAddOperator',
        summary: 'Add an operator (a one-time password given once)',
        description:
          'Their first sign-in, with the one-time password, must choose their own password and enrol their second factor before anything else. ' +
          'An e-mail already an operator’s is a 400 naming `email`.',
        tags: TAGS,
        body: NewOperatorBody,
        response: { 201: OperatorWithPasswordResponse, ...errorResponses([400, 401, 403, 413, 415]) },
      },
    },
    async (request, reply) => {
      const { operator, oneTimePassword } = await deps.operators.add(request.body, by(request));
      return reply
        .code(201)
        .send({ ok: true as const, operator: operatorJson(operator), one_time_password: oneTimePassword });
    },
  );

  app.patch(
    '/operators/:operatorId',
    {
      config: { auth: { ops: 'operators:write' } },
      schema: {
        operationId: 'opsSetOperatorRole',
        summary: "Change an operator's role",
        description:
          'It applies to their open sessions at once. The last enabled admin keeps the role: 422 `last_admin`.',
        tags: TAGS,
        params: OperatorIdParams,
        body: RoleBody,
        response: { 200: OperatorResponse, ...errorResponses([400, 401, 403, 404, 413, 415, 422]) },
      },
    },
    async (request) => ({
      ok: true as const,
      operator: operatorJson(
        await deps.operators.setRole(request.params.operatorId, request.body.role, by(request)),
      ),
    }),
  );

  app.post(
    '/operators/:operatorId/disable',
    {
      config: { auth: { ops: 'operators:write' } },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'opsDisableOperator',
        summary: 'Disable an operator: their sessions and sign-in end at once',
        description:
          'Disabling twice changes nothing. The last enabled admin cannot be disabled: 422 `last_admin`.',
        tags: TAGS,
        params: OperatorIdParams,
        body: NoBody,
        response: { 200: OperatorResponse, ...errorResponses([400, 401, 403, 404, 413, 415, 422]) },
      },
    },
    async (request) => ({
      ok: true as const,
      operator: operatorJson(await deps.operators.disable(request.params.operatorId, by(request))),
    }),
  );

  app.post(
    '/operators/:operatorId/reset-password',
    {
      config: { auth: { ops: 'operators:write' } },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'opsResetOperatorPassword',
        summary: 'Give an operator a new one-time password',
        description:
          'Their sessions end and their password stops working; their second factor stays (asked at sign-in). A disabled operator: 422 `operator_disabled`.',
        tags: TAGS,
        params: OperatorIdParams,
        body: NoBody,
        response: {
          200: OperatorWithPasswordResponse,
          ...errorResponses([400, 401, 403, 404, 413, 415, 422]),
        },
      },
    },
    async (request) => {
      const { operator, oneTimePassword } = await deps.operators.resetPassword(
        request.params.operatorId,
        by(request),
      );
      return { ok: true as const, operator: operatorJson(operator), one_time_password: oneTimePassword };
    },
  );

  app.post(
    '/operators/:operatorId/reset-second-factor',
    {
      config: { auth: { ops: 'operators:write' } },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'opsResetOperatorSecondFactor',
        summary: "Reset an operator's second factor (a lost phone)",
        description:
          'Their TOTP secret and recovery codes are removed, their sessions end, and a one-time password replaces theirs (given once): ' +
          'their next sign-in chooses a password and enrols again, so whoever knew the old password cannot enrol a factor of their own. ' +
          'Audited. A disabled operator: 422 `operator_disabled`.',
        tags: TAGS,
        params: OperatorIdParams,
        body: NoBody,
        response: {
          200: OperatorWithPasswordResponse,
          ...errorResponses([400, 401, 403, 404, 413, 415, 422]),
        },
      },
    },
    async (request) => {
      const { operator, oneTimePassword } = await deps.operators.resetSecondFactor(
        request.params.operatorId,
        by(request),
      );
      return { ok: true as const, operator: operatorJson(operator), one_time_password: oneTimePassword };
    },
  );
}
