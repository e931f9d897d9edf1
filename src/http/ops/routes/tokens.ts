import { Type } from '@sinclair/typebox';
import { opsTokenJson } from '../../../domain/operators/ops-token-json.ts';
import type { OpsTokenService } from '../../../domain/operators/ops-token-service.ts';
import type { TypedApp } from '../../shared/app-types.ts';
import { actedBy, requireOperator } from '../../shared/operator-requirements.ts';
import { absentBodyIsEmpty } from '../../shared/optional-body.ts';
import {
  CreatedTokenResponse,
  NewTokenBody,
  OpsTokenSchema,
  TokenIdParams,
} from '../../shared/schemas/operators.ts';
import { errorResponses, NoBody } from '../../shared/schemas/shared.ts';

const TAGS = ['People and tokens'];

/** The machine tokens, managed by an admin (the same service as `dlv ops-tokens`). */
export function opsTokenRoutes(app: TypedApp, deps: { opsTokens: OpsTokenService }): void {
  app.get(
    '/tokens',
    {
      config: { auth: { ops: 'operators:read' } },
      schema: {
        operationId: 'opsListTokens',
        summary: 'The machine tokens (their prefixes, never the tokens)',
        tags: TAGS,
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            tokens: Type.Array(OpsTokenSchema, { maxItems: 10000 }),
          }),
          ...errorResponses([401, 403]),
        },
      },
    },
    async () => ({ ok: true as const, tokens: (await deps.opsTokens.list()).map(opsTokenJson) }),
  );

  app.post(
    '/tokens',
    {
      config: { auth: { ops: 'operators:write' } },
      schema: {
        operationId: 'opsCreateToken',
        summary: 'Create a machine token: named, scoped, shown once',
        description:
          'Stored as a SHA-256 digest with a display prefix. `last_used_at` is kept (at most once a minute). A name another working ' +
          'token has, or an `operators:*` scope, is a 400.',
        tags: TAGS,
        body: NewTokenBody,
        response: { 201: CreatedTokenResponse, ...errorResponses([400, 401, 403, 413, 415]) },
      },
    },
    async (request, reply) => {
      const created = await deps.opsTokens.create(
        {
          name: request.body.name,
          scopes: request.body.scopes,
          expiresAt: request.body.expires_at ? new Date(request.body.expires_at) : null,
        },
        actedBy(requireOperator(request, 'operators:write')),
      );
      return reply
        .code(201)
        .send({ ok: true as const, token: { ...opsTokenJson(created), token: created.token } });
    },
  );

  app.post(
    '/tokens/:id/revoke',
    {
      config: { auth: { ops: 'operators:write' } },
      preValidation: absentBodyIsEmpty,
      schema: {
        operationId: 'opsRevokeToken',
        summary: 'Revoke a machine token',
        description:
          'Refused (401) at once by the instance that revoked it, within 5 seconds by every other. Revoking twice changes nothing.',
        tags: TAGS,
        params: TokenIdParams,
        body: NoBody,
        response: {
          200: Type.Object({ ok: Type.Literal(true), token: OpsTokenSchema }),
          ...errorResponses([400, 401, 403, 404, 413, 415]),
        },
      },
    },
    async (request) => ({
      ok: true as const,
      token: opsTokenJson(
        await deps.opsTokens.revoke(request.params.id, actedBy(requireOperator(request, 'operators:write'))),
      ),
    }),
  );
}
