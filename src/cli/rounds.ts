import type { RoundJson, StopInput } from '../domain/rounds/round-service.ts';
import { type CommandSpec, command, requireArg, requireFlag, table } from './context.ts';

const stopsText = (r: RoundJson) => {
  const pickups = r.stops.filter((s) => s.kind === 'pickup').length;
  return `${pickups} pickup(s), ${r.stops.length - pickups} deliverie(s)`;
};

function roundsTable(rounds: RoundJson[]): string {
  if (rounds.length === 0) return 'No round that day.';
  return table([
    ['ID', 'NAME', 'COURIER', 'SORT CODES', 'STOPS', 'KM', 'VERSION'],
    ...rounds.map((r) => [
      r.id,
      r.name,
      r.courier_id ?? '(unassigned)',
      r.sort_codes.join(','),
      stopsText(r),
      r.planned_distance_m === null ? '' : (r.planned_distance_m / 1000).toFixed(1),
      String(r.version),
    ]),
  ]);
}

/** A stop as typed: a pickup id (pck_…) or a tracking reference. */
const stopInput = (text: string): StopInput =>
  text.startsWith('pck_') ? { pickup_id: text } : { tracking_ref: text };

function versionFlag(ctx: Parameters<CommandSpec['run']>[0], name: string): number {
  const raw = requireFlag(ctx, name);
  return /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
}

export const roundCommands: CommandSpec[] = [
  command({
    path: 'rounds plan',
    writesNoLinks: true,
    description: "plan (or re-plan) a day's rounds by sort code; re-planning keeps what is there and adds",
    flags: {
      date: { value: 'YYYY-MM-DD', description: 'the day', required: true },
      assign: { description: 'give each round without a courier to an enabled courier, round-robin' },
      optimise: {
        description:
          "plan with the optimiser: couriers' shifts and vehicles, capacities, windows (docs/planning.md); lists the stops it cannot place",
      },
    },
    async run(ctx) {
      if (ctx.flags.optimise === true) {
        const day = await ctx.deps.rounds.planOptimised({ date: requireFlag(ctx, 'date') }, ctx.by);
        const km = (m: number) => `${(m / 1000).toFixed(1)} km`;
        const lines = [
          roundsTable(day.rounds),
          `${day.summary.rounds} round(s), ${day.summary.stops} stop(s), ${km(day.summary.distance_m)} planned (${day.engine}).`,
          ...(day.unplaced.length === 0
            ? []
            : [
                `${day.unplaced.length} stop(s) not placed:`,
                ...day.unplaced.map((u) => `  ${u.tracking_ref ?? u.pickup_id}  ${u.reason}`),
              ]),
        ];
        ctx.out(lines.join('\n'), day);
        return;
      }
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
    description: 'give a round to a courier (an enabled one), and a vehicle with --vehicle',
    args: [
      { name: 'ROUND', description: 'the round (rnd_…)' },
      { name: 'COURIER', description: 'the courier (cou_…) or its e-mail' },
    ],
    flags: { vehicle: { value: 'VEHICLE', description: 'also give it this vehicle (veh_… or its name)' } },
    async run(ctx) {
      const round = await ctx.deps.rounds.assign(
        requireArg(ctx, 0, 'ROUND'),
        requireArg(ctx, 1, 'COURIER'),
        ctx.by,
        undefined,
        typeof ctx.flags.vehicle === 'string' ? ctx.flags.vehicle : undefined,
      );
      ctx.out(`${round.id}  ${round.name}  → ${round.courier_id}`, { round });
    },
  }),
  command({
    path: 'rounds pin',
    writesNoLinks: true,
    description: 'pin a stop to its round (re-optimising keeps it there); --unpin to release it',
    args: [
      { name: 'ROUND', description: 'the round (rnd_…)' },
      { name: 'STOP', description: 'a tracking reference, or a pickup id (pck_…)' },
    ],
    flags: {
      version: { value: 'N', description: 'the round’s version as you last read it', required: true },
      unpin: { description: 'release the pin' },
    },
    async run(ctx) {
      const round = await ctx.deps.rounds.pin(
        requireArg(ctx, 0, 'ROUND'),
        {
          stop: stopInput(requireArg(ctx, 1, 'STOP')),
          pinned: ctx.flags.unpin !== true,
          version: versionFlag(ctx, 'version'),
        },
        ctx.by,
      );
      ctx.out(roundsTable([round]), { round });
    },
  }),
  command({
    path: 'rounds move',
    writesNoLinks: true,
    description: 'move a stop to another round of the day (both versions checked)',
    args: [
      { name: 'ROUND', description: 'the round it is on (rnd_…)' },
      { name: 'STOP', description: 'a tracking reference, or a pickup id (pck_…)' },
    ],
    flags: {
      to: { value: 'ROUND', description: 'the round it goes to', required: true },
      position: { value: 'N', description: 'its place there, 1-based (default: last)' },
      version: { value: 'N', description: 'the first round’s version as you last read it', required: true },
      'to-version': {
        value: 'N',
        description: 'the other round’s version as you last read it',
        required: true,
      },
    },
    async run(ctx) {
      const position = typeof ctx.flags.position === 'string' ? Number(ctx.flags.position) : undefined;
      const moved = await ctx.deps.rounds.move(
        requireArg(ctx, 0, 'ROUND'),
        {
          stop: stopInput(requireArg(ctx, 1, 'STOP')),
          toRoundId: requireFlag(ctx, 'to'),
          ...(position !== undefined && { position }),
          version: versionFlag(ctx, 'version'),
          toVersion: versionFlag(ctx, 'to-version'),
        },
        ctx.by,
      );
      ctx.out(roundsTable([moved.from, moved.to]), moved);
    },
  }),
];
