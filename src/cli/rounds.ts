import type { RoundJson } from '../domain/rounds/round-service.ts';
import { type CommandSpec, command, requireArg, requireFlag, table } from './context.ts';

const stopsText = (r: RoundJson) => {
  const pickups = r.stops.filter((s) => s.kind === 'pickup').length;
  return `${pickups} pickup(s), ${r.stops.length - pickups} deliverie(s)`;
};

function roundsTable(rounds: RoundJson[]): string {
  if (rounds.length === 0) return 'No round that day.';
  return table([
    ['ID', 'NAME', 'COURIER', 'SORT CODES', 'STOPS'],
    ...rounds.map((r) => [
      r.id,
      r.name,
      r.courier_id ?? '(unassigned)',
      r.sort_codes.join(','),
      stopsText(r),
    ]),
  ]);
}

export const roundCommands: CommandSpec[] = [
  command({
    path: 'rounds plan',
    writesNoLinks: true,
    description: "plan (or re-plan) a day's rounds by sort code; re-planning keeps what is there and adds",
    flags: {
      date: { value: 'YYYY-MM-DD', description: 'the day', required: true },
      assign: { description: 'give each round without a courier to an enabled courier, round-robin' },
    },
    async run(ctx) {
      const rounds = await ctx.deps.rounds.plan(
        { date: requireFlag(ctx, 'date'), assign: ctx.flags.assign === true },
        ctx.by,
      );
      ctx.out(roundsTable(rounds), { rounds });
    },
  }),
  command({
    path: 'rounds list',
    writesNoLinks: true,
    description: "a day's rounds, their couriers and stops",
    flags: { date: { value: 'YYYY-MM-DD', description: 'the day', required: true } },
    async run(ctx) {
      const rounds = await ctx.deps.rounds.list(requireFlag(ctx, 'date'), ctx.by);
      ctx.out(roundsTable(rounds), { rounds });
    },
  }),
  command({
    path: 'rounds assign',
    writesNoLinks: true,
    description: 'give a round to a courier (an enabled one)',
    args: [
      { name: 'ROUND', description: 'the round (rnd_…)' },
      { name: 'COURIER', description: 'the courier (cou_…) or its e-mail' },
    ],
    async run(ctx) {
      const round = await ctx.deps.rounds.assign(
        requireArg(ctx, 0, 'ROUND'),
        requireArg(ctx, 1, 'COURIER'),
        ctx.by,
      );
      ctx.out(`${round.id}  ${round.name}  → ${round.courier_id}`, { round });
    },
  }),
];
