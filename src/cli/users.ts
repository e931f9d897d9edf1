import type { User } from '../domain/accounts/user.ts';
import { negotiateLocale } from '../i18n/locales.ts';
import { BRAND_FLAG, type CommandSpec, command, requireFlag } from './context.ts';

const userJson = (u: User) => ({
  id: u.id,
  brand_id: u.brandId,
  email: u.email,
  role: u.role,
  created_at: u.createdAt.toISOString(),
});

export const userCommands: CommandSpec[] = [
  command({
    path: 'users invite',
    description: 'e-mail a person a link (valid 7 days) to choose a password and join the brand',
    flags: {
      brand: BRAND_FLAG,
      email: { value: 'E', description: 'their e-mail address', required: true },
      role: { value: 'ROLE', description: 'owner, developer (default) or finance' },
      lang: { value: 'LANG', description: "the e-mail's language: fr (default) or en" },
    },
    async run(ctx) {
      // The invitee has no browser to ask yet: the flag, else French (the brands are in Île-de-France).
      const lang = negotiateLocale(undefined, { asked: ctx.flags.lang, fallback: 'fr' });
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
  }),
];
