import { Type } from '@sinclair/typebox';
import type { PublicApp } from '../../app-types.ts';
import { errorResponses } from '../../schemas/shared.ts';

export function pingRoute(app: PublicApp): void {
  app.get(
    '/ping',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'ping',
        summary: 'Check that the API answers',
        tags: ['System'],
        response: {
          200: Type.Object(
            { ok: Type.Literal(true), time: Type.String({ format: 'date-time' }) },
            { description: 'The API is up.' },
          ),
          ...errorResponses([429]),
        },
      },
    },
    async () => ({ ok: true as const, time: new Date().toISOString() }),
  );
}
