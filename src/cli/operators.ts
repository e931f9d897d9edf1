import { type Operator, operatorJson } from '../domain/operators/operator.ts';
import { OPERATOR_ONE_TIME_PASSWORD_HOURS } from '../domain/operators/operator-service.ts';
import { OPERATOR_ROLES } from '../domain/operators/scopes.ts';
import { cliActor } from './acting.ts';
import { type CommandSpec, coreCommand, requireArg, requireFlag, table } from './context.ts';

const ROLES = OPERATOR_ROLES.join('|');
const OPERATOR = { name: 'OPERATOR', description: 'the operator (opr_…) or their e-mail' };

const describe = (o: Operator) => `${o.id}  ${o.name} <${o.email}>  ${o.role}  ${statusOf(o)}`;

function statusOf(o: Operator): string {
  if (o.disabledAt) return 'disabled';
  if (o.mustChoosePassword) return 'first sign-in pending';
  return o.secondFactorEnrolledAt ? 'enabled' : 'second factor to enrol';
}

// How the admin hands a one-time password over, and what the person's first sign-in does with it.
const oneTimeText = (password: string) =>
  `one-time password (shown once, give it to the person): ${password}\n` +
  `It opens one sign-in within ${OPERATOR_ONE_TIME_PASSWORD_HOURS} hours, which chooses their own password and enrols their second factor (TOTP).`;

const withPassword = (r: { operator: Operator; oneTimePassword: string }) => ({
  human: `${describe(r.operator)}\n${oneTimeText(r.oneTimePassword)}`,
  json: { operator: operatorJson(r.operator), one_time_password: r.oneTimePassword },
});

export const operatorCommands: CommandSpec[] = [
  coreCommand({
    path: 'operators add',
    description: `add an operator (a person of the company); prints a one-time password once (one sign-in, ${OPERATOR_ONE_TIME_PASSWORD_HOURS} hours)`,
    flags: {
      email: { value: 'EMAIL', description: 'their sign-in e-mail', required: true },
      name: { value: 'NAME', description: 'their name', required: true },
      role: {
        value: ROLES,
        description:
          'admin: everything; dispatcher: the street; finance: invoices and grids; support: reads, answers brands',
        required: true,
      },
    },
    async run(ctx) {
      const added = await ctx.deps.operators.add(
        { email: requireFlag(ctx, 'email'), name: requireFlag(ctx, 'name'), role: requireFlag(ctx, 'role') },
        cliActor(),
      );
      const { human, json } = withPassword(added);
      ctx.out(human, json);
    },
  }),
  coreCommand({
    path: 'operators list',
    description: 'the operators, enabled first',
    async run(ctx) {
      const operators = await ctx.deps.operators.list();
      const text =
        operators.length === 0
          ? 'No operator yet: dlv operators add --email E --name NAME --role admin'
          : table([
              ['ID', 'NAME', 'EMAIL', 'ROLE', 'STATUS'],
              ...operators.map((o) => [o.id, o.name, o.email, o.role, statusOf(o)]),
            ]);
      ctx.out(text, { operators: operators.map(operatorJson) });
    },
  }),
  coreCommand({
    path: 'operators set-role',
    description: `change an operator's role (${ROLES}); their open sessions follow at once`,
    args: [OPERATOR, { name: 'ROLE', description: ROLES }],
    async run(ctx) {
      const operator = await ctx.deps.operators.setRole(
        requireArg(ctx, 0, 'OPERATOR'),
        requireArg(ctx, 1, 'ROLE'),
        cliActor(),
      );
      ctx.out(describe(operator), { operator: operatorJson(operator) });
    },
  }),
  coreCommand({
    path: 'operators disable',
    description: 'disable an operator: their sessions and sign-in end at once',
    args: [OPERATOR],
    async run(ctx) {
      const operator = await ctx.deps.operators.disable(requireArg(ctx, 0, 'OPERATOR'), cliActor());
      ctx.out(describe(operator), { operator: operatorJson(operator) });
    },
  }),
  coreCommand({
    path: 'operators reset-password',
    description:
      'a new one-time password for an operator (forgotten, expired): their sessions end, their second factor stays',
    args: [OPERATOR],
    async run(ctx) {
      const { human, json } = withPassword(
        await ctx.deps.operators.resetPassword(requireArg(ctx, 0, 'OPERATOR'), cliActor()),
      );
      ctx.out(human, json);
    },
  }),
  coreCommand({
    path: 'operators reset-2fa',
    description:
      "remove an operator's second factor (a lost phone): sessions end, a one-time password replaces theirs, the next sign-in enrols again",
    args: [OPERATOR],
    async run(ctx) {
      const { human, json } = withPassword(
        await ctx.deps.operators.resetSecondFactor(requireArg(ctx, 0, 'OPERATOR'), cliActor()),
      );
      ctx.out(human, json);
    },
  }),
];
