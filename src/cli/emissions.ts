import { type CommandSpec, command, requireFlag } from './context.ts';

export const emissionCommands: CommandSpec[] = [
  command({
    path: 'emissions recompute',
    writesNoLinks: true,
    description:
      "compute again the CO₂e of the orders delivered or returned in a month (after a change of factors, or the rounds' distances stored since)",
    flags: { period: { value: 'YYYY-MM', description: 'the month (Europe/Paris)', required: true } },
    async run(ctx) {
      const period = requireFlag(ctx, 'period');
      const { orders } = await ctx.deps.emissions.recompute(period);
      ctx.out(`Computed the CO₂e of ${orders} order(s) delivered or returned in ${period}.`, {
        period,
        orders,
      });
    },
  }),
];
