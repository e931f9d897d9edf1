import { AppError, invalidField, validateAll } from '../../errors.ts';
import type { Author } from '../audit/actor.ts';
import { changedFields, type JsonValue } from '../audit/changes.ts';
import { isIsoDate } from '../calendar/iso-date.ts';
import { prefixedId } from '../ids.ts';
import { isInIleDeFrance } from '../places/region.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import {
  type Hub,
  type HubJson,
  hubJson,
  isVehicleKind,
  minutesOf,
  type Shift,
  type ShiftBreak,
  type ShiftJson,
  shiftJson,
  VEHICLE_KINDS,
  type Vehicle,
  type VehicleJson,
  vehicleJson,
} from './fleet.ts';

export interface FleetServiceDeps {
  transact: Transact;
  stores: Stores;
  clock: Clock;
}

interface NewHub {
  name: string;
  address: string;
  lat: number;
  lng: number;
}

interface NewVehicle {
  name: string;
  kind: string;
  capacityParcels: number;
  capacityKg: number;
  /** The hub's id or name. */
  hub: string;
}

interface ShiftInput {
  /** The courier's id or e-mail. */
  courier: string;
  date: string;
  startsAt: string;
  endsAt: string;
  /** The vehicle's id or name. */
  vehicle: string;
  /** The courier's break (none when absent or null). */
  break?: ShiftBreak | null;
}

/** A break lasts 5 minutes to 4 hours. */
const BREAK_MINUTES = [5, 240] as const;

/**
 * The operator's fleet (issue 37): each change recorded in the audit trail with `by`, in its own
 * transaction; every bad field is a 400 naming it, all at once, and nothing is written.
 */
export interface FleetService {
  addHub(input: NewHub, by: Author): Promise<HubJson>;
  listHubs(): Promise<HubJson[]>;
  addVehicle(input: NewVehicle, by: Author): Promise<VehicleJson>;
  listVehicles(): Promise<VehicleJson[]>;
  disableVehicle(idOrName: string, by: Author): Promise<VehicleJson>;
  setShift(input: ShiftInput, by: Author): Promise<ShiftJson>;
  listShifts(date: string): Promise<ShiftJson[]>;
}

const NAME_MAX = 100;

function name(value: string, field = 'name'): string {
  const trimmed = value.trim();
  if (trimmed.length < 1 || trimmed.length > NAME_MAX)
    throw invalidField(field, `must be 1 to ${NAME_MAX} characters`);
  return trimmed;
}

function degrees(value: number, field: string, bound: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > bound)
    throw invalidField(field, `must be a number from -${bound} to ${bound} (WGS 84 decimal degrees)`);
  return value;
}

function positiveInteger(value: number, field: string, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw invalidField(field, `must be a whole number from 1 to ${max}`);
  return value;
}

function time(value: string, field: string): string {
  if (minutesOf(value) === null) throw invalidField(field, 'must be a time HH:MM (00:00 to 23:59)');
  return value;
}

const fields = (o: Record<string, unknown>) => o as Record<string, JsonValue>;

export function fleetService(deps: FleetServiceDeps): FleetService {
  const { transact, clock } = deps;

  async function vehicleOf(stores: Stores, key: string, field: string): Promise<Vehicle> {
    const found = key.trim() ? await stores.fleet.findVehicle(key.trim()) : null;
    if (!found) throw invalidField(field, `no vehicle ${key.slice(0, 100)}`);
    return found;
  }

  return {
    async addHub(input, by) {
      const hub = validateAll({
        name: () => name(input.name),
        address: () => name(input.address ?? '', 'address'),
        lat: () => degrees(input.lat, 'lat', 90),
        lng: () => degrees(input.lng, 'lng', 180),
      });
      if (!isInIleDeFrance(hub)) throw invalidField('lat', 'the point is outside Île-de-France (lat, lng)');
      return transact(async (stores) => {
        if (await stores.fleet.findHub(hub.name))
          throw invalidField('name', `a hub is already named ${hub.name}`);
        const row: Hub = { id: prefixedId('hub'), ...hub, createdAt: clock() };
        await stores.fleet.insertHub(row);
        const json = hubJson(row);
        await stores.audit.record({
          action: 'hub.added',
          by,
          object: { type: 'hub', id: row.id },
          changes: changedFields(
            null,
            fields({ name: json.name, address: json.address, lat: json.lat, lng: json.lng }),
            new Set(),
          ),
        });
        return json;
      });
    },

    listHubs: async () => (await deps.stores.fleet.hubs()).map(hubJson),

    async addVehicle(input, by) {
      const checked = validateAll({
        name: () => name(input.name),
        kind: () => {
          if (!isVehicleKind(input.kind))
            throw invalidField('kind', `must be one of ${VEHICLE_KINDS.join(', ')}`);
          return input.kind;
        },
        capacityParcels: () => positiveInteger(input.capacityParcels, 'capacity_parcels', 100_000),
        capacityKg: () => {
          const kg = input.capacityKg;
          if (typeof kg !== 'number' || !Number.isFinite(kg) || kg <= 0 || kg > 100_000)
            throw invalidField('capacity_kg', 'must be a number of kilograms above 0, at most 100000');
          return Math.round(kg * 10) / 10;
        },
        hub: () => name(input.hub, 'hub'),
      });
      return transact(async (stores) => {
        const hub = await stores.fleet.findHub(checked.hub);
        if (!hub) throw invalidField('hub', `no hub ${checked.hub}`);
        if (await stores.fleet.findVehicle(checked.name))
          throw invalidField('name', `a vehicle is already named ${checked.name}`);
        const vehicle: Vehicle = {
          id: prefixedId('veh'),
          name: checked.name,
          kind: checked.kind,
          capacityParcels: checked.capacityParcels,
          capacityKg: checked.capacityKg,
          hubId: hub.id,
          disabledAt: null,
          createdAt: clock(),
        };
        await stores.fleet.insertVehicle(vehicle);
        const json = vehicleJson(vehicle);
        const { id: _, created_at: __, disabled_at: ___, ...recorded } = json;
        await stores.audit.record({
          action: 'vehicle.added',
          by,
          object: { type: 'vehicle', id: vehicle.id },
          changes: changedFields(null, fields(recorded), new Set()),
        });
        return json;
      });
    },

    listVehicles: async () => (await deps.stores.fleet.vehicles()).map(vehicleJson),

    async disableVehicle(idOrName, by) {
      return transact(async (stores) => {
        const vehicle = await stores.fleet.findVehicle(idOrName.trim());
        if (!vehicle) throw new AppError('not_found', `No vehicle ${idOrName.slice(0, 100)}.`);
        if (vehicle.disabledAt) return vehicleJson(vehicle);
        const at = clock();
        await stores.fleet.disableVehicle(vehicle.id, at);
        await stores.audit.record({
          action: 'vehicle.disabled',
          by,
          object: { type: 'vehicle', id: vehicle.id },
          changes: { disabled_at: { before: null, after: at.toISOString() } },
        });
        return vehicleJson({ ...vehicle, disabledAt: at });
      });
    },

    async setShift(input, by) {
      const checked = validateAll({
        date: () => {
          if (!isIsoDate(input.date)) throw invalidField('date', 'must be a date (YYYY-MM-DD)');
          return input.date;
        },
        startsAt: () => time(input.startsAt, 'starts_at'),
        endsAt: () => time(input.endsAt, 'ends_at'),
        vehicle: () => name(input.vehicle, 'vehicle_id'),
        courier: () => name(input.courier, 'courier_id'),
        breakFrom: () => (input.break ? time(input.break.from, 'break.from') : null),
        breakUntil: () => (input.break ? time(input.break.until, 'break.until') : null),
        breakMinutes: () => {
          if (!input.break) return null;
          const m = input.break.minutes;
          if (!Number.isInteger(m) || m < BREAK_MINUTES[0] || m > BREAK_MINUTES[1])
            throw invalidField(
              'break.minutes',
              `must be a whole number of minutes from ${BREAK_MINUTES[0]} to ${BREAK_MINUTES[1]}`,
            );
          return m;
        },
      });
      if (minutesOf(checked.endsAt)! <= minutesOf(checked.startsAt)!)
        throw invalidField('ends_at', `must be after starts_at (${checked.startsAt})`);
      const shiftBreak = checkedBreak(checked);
      return transact(async (stores) => {
        const key = checked.courier;
        const courier = /^cou_[0-9a-f]{16}$/.test(key)
          ? await stores.couriers.findById(key)
          : key.includes('@')
            ? await stores.couriers.findByEmail(key)
            : null;
        if (!courier) throw invalidField('courier_id', `no courier ${key.slice(0, 100)}`);
        if (courier.disabledAt)
          throw new AppError('courier_disabled', `courier_id: courier ${courier.id} is disabled.`, [
            { field: 'courier_id', message: 'is a disabled courier' },
          ]);
        const vehicle = await vehicleOf(stores, checked.vehicle, 'vehicle_id');
        if (vehicle.disabledAt) throw invalidField('vehicle_id', `vehicle ${vehicle.name} is disabled`);
        const day = await stores.fleet.shiftsOfDay(checked.date);
        const other = day.find((s) => s.vehicleId === vehicle.id && s.courierId !== courier.id);
        if (other)
          throw invalidField(
            'vehicle_id',
            `vehicle ${vehicle.name} is already driven by ${other.courierId} on ${checked.date}`,
          );
        const before = day.find((s) => s.courierId === courier.id) ?? null;
        const shift: Shift = {
          courierId: courier.id,
          date: checked.date,
          startsAt: checked.startsAt,
          endsAt: checked.endsAt,
          vehicleId: vehicle.id,
          break: shiftBreak,
        };
        await stores.fleet.upsertShift(shift);
        const changes = changedFields(
          before && fields(shiftJson(before)),
          fields(shiftJson(shift)),
          new Set(),
        );
        if (changes)
          await stores.audit.record({
            action: 'shift.set',
            by,
            object: { type: 'shift', id: `${courier.id}/${checked.date}` },
            changes,
            details: { date: checked.date },
          });
        return shiftJson(shift);
      });
    },

    async listShifts(date) {
      if (!isIsoDate(date)) throw invalidField('date', 'must be a date (YYYY-MM-DD)');
      return (await deps.stores.fleet.shiftsOfDay(date)).map(shiftJson);
    },
  };
}

/** The break, within the shift and long enough for its minutes; null when the shift has none. */
function checkedBreak(c: {
  startsAt: string;
  endsAt: string;
  breakFrom: string | null;
  breakUntil: string | null;
  breakMinutes: number | null;
}): ShiftBreak | null {
  if (c.breakFrom === null || c.breakUntil === null || c.breakMinutes === null) return null;
  const from = minutesOf(c.breakFrom)!;
  const until = minutesOf(c.breakUntil)!;
  if (from < minutesOf(c.startsAt)!)
    throw invalidField('break.from', `must be within the shift (${c.startsAt}–${c.endsAt})`);
  if (until > minutesOf(c.endsAt)!)
    throw invalidField('break.until', `must be within the shift (${c.startsAt}–${c.endsAt})`);
  if (until - from < c.breakMinutes)
    throw invalidField(
      'break.until',
      `must leave room for the ${c.breakMinutes}-minute break after break.from (${c.breakFrom})`,
    );
  return { from: c.breakFrom, until: c.breakUntil, minutes: c.breakMinutes };
}
