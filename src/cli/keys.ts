import type { ApiKeyRecord } from '../domain/api-keys/ports.ts';
import { type CommandSpec, requireArg, requireFlag, table } from './context.ts';

const keyJson = (k: ApiKeyRecord) => ({
  id: k.id,
  brand_id: k.brandId,
  prefix: k.prefix,
  scopes: k.scopes,
  created_at: k.createdAt.toISOString(),
  revoked_at: k.revokedAt?.toISOString() ?? null,
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
});

export const keyCommands: Record<string, CommandSpec> = {
  'keys create': {
    usage:
      'dlv keys create --brand ID --scopes orders:read,orders:write,invoices:read[,webhooks:write] [--json]',
    options: ['brand', 'scopes'],
    async run(ctx) {
      const key = await ctx.deps.apiKeys.create({
        brandId: requireFlag(ctx, 'brand'),
        scopes: requireFlag(ctx, 'scopes'),
      });
      ctx.out(
        `Created key ${key.id} with scopes ${key.scopes.join(', ')}.\nThe key is shown only now; store it safely:\n${key.key}`,
        { ...keyJson(key), key: key.key },
      );
    },
  },
  'keys list': {
    usage: 'dlv keys list --brand ID [--json]',
    options: ['brand'],
    async run(ctx) {
      const keys = await ctx.deps.apiKeys.list(requireFlag(ctx, 'brand'));
      const rows = [['ID', 'PREFIX', 'SCOPES', 'CREATED', 'LAST USED', 'REVOKED']].concat(
        keys.map((k) => [
          k.id,
          k.prefix,
          k.scopes.join(','),
          k.createdAt.toISOString(),
          k.lastUsedAt?.toISOString() ?? '-',
          k.revokedAt?.toISOString() ?? '-',
        ]),
      );
      ctx.out(keys.length ? table(rows) : 'This brand has no keys.', { keys: keys.map(keyJson) });
    },
  },
  'keys revoke': {
    usage: 'dlv keys revoke KEY_ID [--json]',
    async run(ctx) {
      const key = await ctx.deps.apiKeys.revoke(requireArg(ctx, 0, 'KEY_ID'));
      ctx.out(`Revoked ${key.id} (effective within 5 seconds on every instance)`, keyJson(key));
    },
  },
};
