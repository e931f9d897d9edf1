import type { TypedApp } from '../../../shared/app-types.ts';
import { principalOf } from '../../../shared/plugins/auth.ts';
import { MeResponse } from '../../../shared/schemas/me.ts';
import { errorResponses, iso, isoOrNull } from '../../../shared/schemas/shared.ts';

export function getMeRoute(app: TypedApp): void {
  app.get(
    '/me',
    {
      config: { auth: 'any' },
      schema: {
        operationId: 'getMe',
        summary: 'The brand and scopes of the calling API key',
        tags: ['Account'],
        response: {
          200: { ...MeResponse, description: 'The calling brand and key.' },
          ...errorResponses([401, 429]),
        },
      },
    },
    async (request) => {
      const { brand, key } = principalOf(request);
      return {
        ok: true as const,
        brand: { id: brand.id, name: brand.name, created_at: iso(brand.createdAt) },
        key: {
          id: key.id,
          prefix: key.prefix,
          scopes: key.scopes,
          created_at: iso(key.createdAt),
          last_used_at: isoOrNull(key.lastUsedAt),
        },
      };
    },
  );
}
