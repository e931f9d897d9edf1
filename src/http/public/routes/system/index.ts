import { Type } from '@sinclair/typebox';
import type { TypedApp } from '../../../shared/app-types.ts';
import { errorResponses, Timestamp } from '../../../shared/schemas/shared.ts';

export function pingRoute(app: TypedApp): void {
  app.get(
    '/ping',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'ping',
        summary: 'Check that the API answers',
        tags: ['System'],
        response: {
          200: Type.Object({ ok: Type.Literal(true), time: Timestamp() }, { description: 'The API is up.' }),
          // Public and not rate limited (limits are per API key): only an internal error is possible.
          ...errorResponses([]),
        },
      },
    },
    async () => ({ ok: true as const, time: new Date().toISOString() }),
  );
}
