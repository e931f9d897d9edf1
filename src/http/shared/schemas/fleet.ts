import { Type } from '@sinclair/typebox';
import { VEHICLE_KINDS } from '../../../domain/fleet/fleet.ts';
import { CalendarDate, INT32_MAX, NullableString, PrefixedId, StringEnum } from './shared.ts';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Time = Type.String({ maxLength: 5, description: 'Paris wall-clock time, `HH:MM`.' });
const Stamp = Type.String({ format: 'date-time', maxLength: 30 });

export const HubSchema = Type.Object(
  {
    id: PrefixedId('hub', 16),
    name: Name,
    address: Type.String({ maxLength: 500 }),
    lat: Type.Number({ minimum: -90, maximum: 90 }),
    lng: Type.Number({ minimum: -180, maximum: 180 }),
    created_at: Stamp,
  },
  { additionalProperties: false },
);

export const NewHubBody = Type.Object(
  {
    name: Type.String({ maxLength: 100, description: 'Unique among hubs.' }),
    address: Type.String({ maxLength: 500 }),
    lat: Type.Number({ description: 'WGS 84 degrees, in Île-de-France.' }),
    lng: Type.Number({ description: 'WGS 84 degrees, in Île-de-France.' }),
  },
  { additionalProperties: false },
);

export const VehicleSchema = Type.Object(
  {
    id: PrefixedId('veh', 16),
    name: Name,
    kind: StringEnum(VEHICLE_KINDS),
    capacity_parcels: Type.Integer({ format: 'int32', minimum: 1, maximum: 100000 }),
    capacity_kg: Type.Number({ minimum: 0, maximum: 100000 }),
    hub_id: PrefixedId('hub', 16),
    disabled_at: NullableString({
      format: 'date-time',
      maxLength: 30,
      description: 'Null while in service.',
    }),
    created_at: Stamp,
  },
  { additionalProperties: false },
);

export const NewVehicleBody = Type.Object(
  {
    name: Type.String({ maxLength: 100, description: 'Unique among vehicles.' }),
    kind: Type.String({
      maxLength: 30,
      description: `One of ${VEHICLE_KINDS.join(', ')}: how it moves (an electric van as a van).`,
    }),
    capacity_parcels: Type.Integer({
      format: 'int32',
      minimum: 0,
      maximum: INT32_MAX,
      description: 'Parcels it carries at most (1 or more).',
    }),
    capacity_kg: Type.Number({ description: 'Kilograms it carries at most (above 0).' }),
    hub: Type.String({
      maxLength: 100,
      description: 'Its hub (id or name): where its rounds start and end.',
    }),
  },
  { additionalProperties: false },
);

export const VehicleIdParams = Type.Object({
  vehicleId: Type.String({ maxLength: 100, description: 'The vehicle id (`veh_…`) or its name.' }),
});

const ShiftBreakSchema = Type.Object(
  {
    from: Type.String({
      maxLength: 5,
      description: 'Paris wall-clock time, `HH:MM`: the break starts no earlier.',
    }),
    until: Type.String({
      maxLength: 5,
      description: 'Paris wall-clock time, `HH:MM`: the break ends no later (within the shift).',
    }),
    minutes: Type.Integer({
      format: 'int32',
      minimum: 5,
      maximum: 240,
      description: 'How long the break lasts, taken whole.',
    }),
  },
  {
    additionalProperties: false,
    description:
      'The courier’s break, which the optimiser plans around (e.g. 30 minutes between 12:00 and 14:00).',
  },
);

export const ShiftSchema = Type.Object(
  {
    courier_id: PrefixedId('cou', 16),
    date: CalendarDate(),
    starts_at: Time,
    ends_at: Time,
    vehicle_id: PrefixedId('veh', 16),
    break: Type.Union([ShiftBreakSchema, Type.Null()]),
  },
  { additionalProperties: false },
);

export const ShiftBody = Type.Object(
  {
    courier_id: Type.String({ maxLength: 254, description: 'The courier (`cou_…`) or their e-mail.' }),
    date: CalendarDate('The shift’s day.'),
    starts_at: Time,
    ends_at: Type.String({ maxLength: 5, description: 'Paris wall-clock time, `HH:MM`, after `starts_at`.' }),
    vehicle_id: Type.String({
      maxLength: 100,
      description: 'The vehicle (`veh_…` or its name) they drive that day.',
    }),
    break: Type.Optional(Type.Union([ShiftBreakSchema, Type.Null()])),
  },
  { additionalProperties: false },
);

export const ShiftsQuery = Type.Object({ date: CalendarDate('The day.') });
