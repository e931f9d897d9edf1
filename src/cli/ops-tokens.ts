import { opsTokenJson } from '../domain/operators/ops-token-json.ts';
import { parseTokenExpiry } from '../domain/operators/ops-token-service.ts';
import { TOKEN_SCOPES } from '../domain/operators/scopes.ts';
import { cliActor } from './acting.ts';
import { type CommandSpec, coreCommand, optionalFlag, requireArg, requireFlag, table } from './context.ts';

export const opsTokenCommands: CommandSpec[] = [
  coreCommand({
    path: 'ops-tokens create',
    description: 'create a machine token of the operations API, named and scoped; the token is printed once',
    flags: {
      name: {
        value: 'NAME',
        description: 'what uses it (unique among the tokens not revoked)',
        required: true,
      },
      scopes: {
        value: 'SCOPES',
        description: `comma-separated, of: ${TOKEN_SCOPES.join(',')}`,
        required: true,
      },
      expires: {
        value: 'WHEN',
        description:
          'when it stops working: 90d, a date (YYYY-MM-DD, through that day in Paris) or an RFC 3339 time',
      },
    },
    async run(ctx) {
      const expires = optionalFlag(ctx, 'expires');
      const token = await ctx.deps.opsTokens.create(
        {
          name: requireFlag(ctx, 'name'),
          scopes: requireFlag(ctx, 'scopes'),
          expiresAt: expires === null ? null : parseTokenExpiry(expires, ctx.deps.clock()),
        },
        cliActor(),
      );
      const until = token.expiresAt ? `, until ${token.expiresAt.toISOString()}` : '';
      ctx.out(
        `Created token ${token.id} (${token.name}) with scopes ${token.scopes.join(', ')}${until}.\n` +
          `The token is shown only now; store it safely:\n${token.token}`,
        { ...opsTokenJson(token), token: token.token },
      );
    },
  }),
  coreCommand({
    path: 'ops-tokens list',
    description: 'the machine tokens (their prefixes, never the tokens), working ones first',
    async run(ctx) {
      const tokens = await ctx.deps.opsTokens.list();
      const rows = tokens.map((t) => [
        t.id,
        t.name,
        t.prefix,
        t.scopes.join(','),
        t.expiresAt?.toISOString() ?? '-',
        t.lastUsedAt?.toISOString() ?? '-',
        t.revokedAt?.toISOString() ?? '-',
      ]);
      ctx.out(
        tokens.length
          ? table([['ID', 'NAME', 'PREFIX', 'SCOPES', 'EXPIRES', 'LAST USED', 'REVOKED'], ...rows])
          : 'No machine token yet: dlv ops-tokens create --name NAME --scopes SCOPES',
        { tokens: tokens.map(opsTokenJson) },
      );
    },
  }),
  coreCommand({
    path: 'ops-tokens revoke',
    description: 'revoke a machine token (refused within 5 seconds on every instance)',
    args: [{ name: 'TOKEN_ID', description: 'the token (otk_…)' }],
    async run(ctx) {
      const token = await ctx.deps.opsTokens.revoke(requireArg(ctx, 0, 'TOKEN_ID'), cliActor());
      ctx.out(
        `Revoked ${token.id} (${token.name}); refused within 5 seconds on every instance`,
        opsTokenJson(token),
      );
    },
  }),
];
