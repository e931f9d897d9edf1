import { type Courier, courierJson } from '../domain/couriers/courier.ts';
import { ONE_TIME_PASSWORD_HOURS } from '../domain/couriers/courier-service.ts';
import { type CommandSpec, command, optionalFlag, requireArg, requireFlag, table } from './context.ts';

const describe = (c: Courier) =>
  `${c.id}  ${c.name} <${c.email}>${c.phone ? `  ${c.phone}` : ''}  ${c.locale}${c.disabledAt ? '  disabled' : ''}`;

const statusOf = (c: Courier) =>
  c.disabledAt ? 'disabled' : c.mustChoosePassword ? 'enabled, first sign-in pending' : 'enabled';

// How the operator hands a one-time password over, and what it does.
const oneTimeText = (password: string) =>
  `one-time password (shown once, give it to the courier): ${password}\n` +
  `It opens one sign-in within ${ONE_TIME_PASSWORD_HOURS} hours; the courier then chooses their own password.`;

export const courierCommands: CommandSpec[] = [
  command({
    path: 'couriers add',
    writesNoLinks: true,
    description: `add a courier; without --password, prints a one-time password once (one sign-in, ${ONE_TIME_PASSWORD_HOURS} hours)`,
    flags: {
      email: { value: 'EMAIL', description: 'their sign-in e-mail', required: true },
      name: { value: 'NAME', description: 'their name, as the operator and the app show it', required: true },
      phone: { value: 'PHONE', description: 'their phone number (06 12 34 56 78 or +33…; stored in E.164)' },
      locale: { value: 'fr|en', description: 'the language of their app (default fr)' },
      password: {
        value: 'PASSWORD',
        description: 'a password the courier chose (else a one-time password is generated and printed once)',
      },
    },
    async run(ctx) {
      const { courier, oneTimePassword } = await ctx.deps.couriers.add(
        {
          email: requireFlag(ctx, 'email'),
          name: requireFlag(ctx, 'name'),
          phone: optionalFlag(ctx, 'phone'),
          locale: optionalFlag(ctx, 'locale'),
          password: typeof ctx.flags.password === 'string' ? ctx.flags.password : null,
        },
        ctx.by,
      );
      const human = oneTimePassword
        ? `${describe(courier)}\n${oneTimeText(oneTimePassword)}`
        : describe(courier);
      ctx.out(human, { courier: courierJson(courier), one_time_password: oneTimePassword });
    },
  }),
  command({
    path: 'couriers list',
    writesNoLinks: true,
    description: 'the couriers, enabled first',
    async run(ctx) {
      const couriers = await ctx.deps.couriers.list();
      const text =
        couriers.length === 0
          ? 'No courier yet.'
          : table([
              ['ID', 'NAME', 'EMAIL', 'PHONE', 'LOCALE', 'STATUS'],
              ...couriers.map((c) => [c.id, c.name, c.email, c.phone ?? '', c.locale, statusOf(c)]),
            ]);
      ctx.out(text, { couriers: couriers.map(courierJson) });
    },
  }),
  command({
    path: 'couriers reset-password',
    writesNoLinks: true,
    description: 'a new one-time password for a courier (forgotten, or expired): its sessions end',
    args: [{ name: 'COURIER', description: 'the courier (cou_…) or its e-mail' }],
    async run(ctx) {
      const { courier, oneTimePassword } = await ctx.deps.couriers.resetPassword(
        requireArg(ctx, 0, 'COURIER'),
        ctx.by,
      );
      ctx.out(`${describe(courier)}\n${oneTimeText(oneTimePassword)}`, {
        courier: courierJson(courier),
        one_time_password: oneTimePassword,
      });
    },
  }),
  command({
    path: 'couriers disable',
    writesNoLinks: true,
    description: 'disable a courier: its sessions end at once, its rounds stay (reassign them)',
    args: [{ name: 'COURIER', description: 'the courier (cou_…) or its e-mail' }],
    async run(ctx) {
      const courier = await ctx.deps.couriers.disable(requireArg(ctx, 0, 'COURIER'), ctx.by);
      ctx.out(describe(courier), { courier: courierJson(courier) });
    },
  }),
];
