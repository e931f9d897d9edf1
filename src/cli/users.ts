import type { User } from '../domain/accounts/user.ts';
import { type CommandSpec, requireFlag } from './context.ts';

const userJson = (u: User) => ({
  id: u.id,
  brand_id: u.brandId,
  email: u.email,
  role: u.role,
  created_at: u.createdAt.toISOString(),
});

export const userCommands: Record<string, CommandSpec> = {
  'users invite': {
    usage: 'dlv users invite --brand ID --email E [--role owner|developer|finance] [--lang fr|en] [--json]',
    options: ['brand', 'email', 'role', 'lang'],
    async run(ctx) {
      const lang = ctx.flags.lang === 'en' ? 'en' : 'fr';
      const user = await ctx.deps.accounts.invite({
        brandId: requireFlag(ctx, 'brand'),
        email: requireFlag(ctx, 'email'),
        role: typeof ctx.flags.role === 'string' ? ctx.flags.role : 'developer',
        locale: lang,
      });
      ctx.out(
        `Invited ${user.email} (${user.role}) to ${user.brandName}: the link is valid 7 days`,
        userJson(user),
      );
    },
  },
};
