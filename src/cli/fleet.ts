import type { HubJson, ShiftJson, VehicleJson } from '../domain/fleet/fleet.ts';
import { invalidField } from '../errors.ts';
import { type CommandSpec, command, requireArg, requireFlag, table } from './context.ts';

const number = (ctx: Parameters<CommandSpec['run']>[0], name: string): number => {
  const raw = requireFlag(ctx, name);
  return /^\s*-?\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN;
};

const hubsTable = (hubs: HubJson[]) =>
  hubs.length === 0
    ? 'No hub yet.'
    : table([
        ['ID', 'NAME', 'ADDRESS', 'LAT', 'LNG'],
        ...hubs.map((h) => [h.id, h.name, h.address, String(h.lat), String(h.lng)]),
      ]);

const vehiclesTable = (vehicles: VehicleJson[]) =>
  vehicles.length === 0
    ? 'No vehicle yet.'
    : table([
        ['ID', 'NAME', 'KIND', 'PARCELS', 'KG', 'HUB', 'STATUS'],
        ...vehicles.map((v) => [
          v.id,
          v.name,
          v.kind,
          String(v.capacity_parcels),
          String(v.capacity_kg),
          v.hub_id,
          v.disabled_at ? 'disabled' : 'in service',
        ]),
      ]);

const shiftsTable = (shifts: ShiftJson[]) =>
  shifts.length === 0
    ? 'No shift that day.'
    : table([
        ['COURIER', 'DATE', 'FROM', 'TO', 'VEHICLE', 'BREAK'],
        ...shifts.map((s) => [
          s.courier_id,
          s.date,
          s.starts_at,
          s.ends_at,
          s.vehicle_id,
          s.break ? `${s.break.minutes} min, ${s.break.from}–${s.break.until}` : '—',
        ]),
      ]);

export const hubCommands: CommandSpec[] = [
  command({
    path: 'hubs add',
    writesNoLinks: true,
    description: 'add a hub (depot) rounds start and end at',
    flags: {
      name: { value: 'NAME', description: 'unique among hubs', required: true },
      address: { value: 'ADDRESS', description: 'its address', required: true },
      lat: { value: 'DEGREES', description: 'latitude (WGS 84, in Île-de-France)', required: true },
      lng: { value: 'DEGREES', description: 'longitude (WGS 84, in Île-de-France)', required: true },
    },
    async run(ctx) {
      const hub = await ctx.deps.fleet.addHub(
        {
          name: requireFlag(ctx, 'name'),
          address: requireFlag(ctx, 'address'),
          lat: number(ctx, 'lat'),
          lng: number(ctx, 'lng'),
        },
        ctx.by,
      );
      ctx.out(hubsTable([hub]), { hub });
    },
  }),
  command({
    path: 'hubs list',
    writesNoLinks: true,
    description: 'the hubs',
    async run(ctx) {
      const hubs = await ctx.deps.fleet.listHubs();
      ctx.out(hubsTable(hubs), { hubs });
    },
  }),
];

export const vehicleCommands: CommandSpec[] = [
  command({
    path: 'vehicles add',
    writesNoLinks: true,
    description: 'add a vehicle: its kind, what it carries, its hub',
    flags: {
      name: { value: 'NAME', description: 'unique among vehicles', required: true },
      kind: {
        value: 'KIND',
        description: 'how it moves: cargo_bike, van, electric_van or on_foot',
        required: true,
      },
      parcels: { value: 'N', description: 'parcels it carries at most', required: true },
      kg: { value: 'KG', description: 'kilograms it carries at most', required: true },
      hub: { value: 'HUB', description: 'its hub (id or name)', required: true },
    },
    async run(ctx) {
      const vehicle = await ctx.deps.fleet.addVehicle(
        {
          name: requireFlag(ctx, 'name'),
          kind: requireFlag(ctx, 'kind'),
          capacityParcels: number(ctx, 'parcels'),
          capacityKg: number(ctx, 'kg'),
          hub: requireFlag(ctx, 'hub'),
        },
        ctx.by,
      );
      ctx.out(vehiclesTable([vehicle]), { vehicle });
    },
  }),
  command({
    path: 'vehicles list',
    writesNoLinks: true,
    description: 'the vehicles, in service first',
    async run(ctx) {
      const vehicles = await ctx.deps.fleet.listVehicles();
      ctx.out(vehiclesTable(vehicles), { vehicles });
    },
  }),
  command({
    path: 'vehicles disable',
    writesNoLinks: true,
    description: 'take a vehicle out of service (it keeps its past rounds)',
    args: [{ name: 'VEHICLE', description: 'the vehicle (veh_…) or its name' }],
    async run(ctx) {
      const vehicle = await ctx.deps.fleet.disableVehicle(requireArg(ctx, 0, 'VEHICLE'), ctx.by);
      ctx.out(vehiclesTable([vehicle]), { vehicle });
    },
  }),
];

export const shiftCommands: CommandSpec[] = [
  command({
    path: 'shifts set',
    writesNoLinks: true,
    description: "set a courier's shift and vehicle for a day (replaces that day's)",
    args: [{ name: 'COURIER', description: 'the courier (cou_…) or their e-mail' }],
    flags: {
      date: { value: 'YYYY-MM-DD', description: 'the day', required: true },
      start: { value: 'HH:MM', description: 'when it starts (Paris time)', required: true },
      end: { value: 'HH:MM', description: 'when it ends (Paris time), after the start', required: true },
      vehicle: { value: 'VEHICLE', description: 'the vehicle they drive (id or name)', required: true },
      break: {
        value: 'HH:MM-HH:MM/MIN',
        description: 'a break of MIN minutes taken between the two times, e.g. 12:00-14:00/30',
      },
    },
    async run(ctx) {
      const shift = await ctx.deps.fleet.setShift(
        {
          courier: requireArg(ctx, 0, 'COURIER'),
          date: requireFlag(ctx, 'date'),
          startsAt: requireFlag(ctx, 'start'),
          endsAt: requireFlag(ctx, 'end'),
          vehicle: requireFlag(ctx, 'vehicle'),
          break: parseBreak(ctx.flags.break),
        },
        ctx.by,
      );
      ctx.out(shiftsTable([shift]), { shift });
    },
  }),
  command({
    path: 'shifts list',
    writesNoLinks: true,
    description: "a day's shifts",
    flags: { date: { value: 'YYYY-MM-DD', description: 'the day', required: true } },
    async run(ctx) {
      const shifts = await ctx.deps.fleet.listShifts(requireFlag(ctx, 'date'));
      ctx.out(shiftsTable(shifts), { shifts });
    },
  }),
];

/** `--break 12:00-14:00/30`: the break's window and minutes; a malformed one is a 400 naming it. */
function parseBreak(value: unknown): { from: string; until: string; minutes: number } | null {
  if (value === undefined || value === null || value === false) return null;
  const m = /^(\d{2}:\d{2})-(\d{2}:\d{2})\/(\d{1,3})$/.exec(String(value).trim());
  if (!m) throw invalidField('break', 'must be HH:MM-HH:MM/MINUTES, e.g. 12:00-14:00/30');
  return { from: m[1]!, until: m[2]!, minutes: Number(m[3]) };
}
