import type { ApiKeyRecord } from '../domain/api-keys/ports.ts';
import { BRAND_FLAG, type CommandSpec, coreCommand, requireArg, requireFlag, table } from './context.ts';

const keyJson = (k: ApiKeyRecord) => ({
  id: k.id,
  brand_id: k.brandId,
  prefix: k.prefix,
  scopes: k.scopes,
  created_at: k.createdAt.toISOString(),
  revoked_at: k.revokedAt?.toISOString() ?? null,
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
});

export const keyCommands: CommandSpec[] = [
  coreCommand({
    path: 'keys create',
    description: 'create an API key; the key is printed once',
    flags: {
      brand: BRAND_FLAG,
      scopes: {
        value: 'SCOPES',
        description: 'comma-separated: orders:read,orders:write,invoices:read[,webhooks:write]',
        required: true,
      },
      test: {
        description:
          'a test key (dlv_test_…): its orders are never dispatched nor billed (docs/test-mode.md)',
      },
    },
    async run(ctx) {
      const test = ctx.flags.test === true;
      const key = await ctx.deps.apiKeys.create(
        { brandId: requireFlag(ctx, 'brand'), scopes: requireFlag(ctx, 'scopes'), test },
        ctx.by,
      );
      ctx.out(
        `Created ${test ? 'test ' : ''}key ${key.id} with scopes ${key.scopes.join(', ')}.\nThe key is shown only now; store it safely:\n${key.key}`,
        { ...keyJson(key), livemode: !test, key: key.key },
      );
    },
  }),
  coreCommand({
    path: 'keys list',
    description: "a brand's keys (their prefixes, never the keys)",
    flags: { brand: BRAND_FLAG },
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
  }),
  coreCommand({
    path: 'keys revoke',
    description: 'revoke a key (effective within 5 seconds on every instance)',
    args: [{ name: 'KEY_ID', description: 'the key (key_…)' }],
    async run(ctx) {
      const key = await ctx.deps.apiKeys.revoke(requireArg(ctx, 0, 'KEY_ID'), ctx.by);
      ctx.out(`Revoked ${key.id} (effective within 5 seconds on every instance)`, keyJson(key));
    },
  }),
];
