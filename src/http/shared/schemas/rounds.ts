import { Type } from '@sinclair/typebox';
import { ONE_TIME_PASSWORD_HOURS } from '../../../domain/couriers/courier-service.ts';
import { DeliveryLocationSchema } from './places.ts';
import { CalendarDate, INT32_MAX, NullableString, PrefixedId, StringEnum, TrackingRef } from './shared.ts';

const Name = Type.String({ minLength: 1, maxLength: 100 });
const SortCode = Type.String({ maxLength: 16 });
const Time = Type.String({ maxLength: 5 });

export const CourierSchema = Type.Object(
  {
    id: PrefixedId('cou', 16),
    email: Type.String({ maxLength: 254 }),
    name: Name,
    phone: NullableString({ maxLength: 30 }),
    locale: Type.Union([Type.Literal('fr'), Type.Literal('en')]),
    must_choose_password: Type.Boolean({
      description:
        'True while the courier holds a one-time password (generated): their next sign-in makes them choose their own.',
    }),
    disabled_at: NullableString({ format: 'date-time', maxLength: 30, description: 'Null while enabled.' }),
    created_at: Type.String({ format: 'date-time', maxLength: 30 }),
  },
  { additionalProperties: false },
);

export const NewCourierBody = Type.Object(
  {
    email: Type.String({
      maxLength: 254,
      description: 'The courier’s sign-in e-mail (unique among couriers).',
    }),
    name: Type.String({ maxLength: 100 }),
    phone: Type.Optional(
      NullableString({
        maxLength: 30,
        description: 'French (`06 12 34 56 78`) or international (`+44 20 7946 0958`); stored in E.164.',
      }),
    ),
    locale: Type.Optional(
      Type.Union([Type.Literal('fr'), Type.Literal('en')], { description: 'Default `fr`.' }),
    ),
    password: Type.Optional(
      Type.String({
        maxLength: 128,
        description:
          'A password the courier chose (the account area’s rules). Without it, a one-time password is generated and given once in the answer: ' +
          `it opens one sign-in, within ${ONE_TIME_PASSWORD_HOURS} hours, which makes the courier choose their own.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const CourierIdParams = Type.Object({
  courierId: Type.String({ maxLength: 100, description: 'The courier id (`cou_…`) or its e-mail.' }),
});

const PickupStop = Type.Object(
  {
    position: Type.Integer({ format: 'int32', minimum: 1, maximum: INT32_MAX }),
    pinned: Type.Boolean({
      description:
        'Pinned by the operator: re-optimising keeps it on this round, in its order among the pins.',
    }),
    planned_arrival: NullableString({
      format: 'date-time',
      maxLength: 30,
      description:
        'When the optimiser plans the courier at the door (service start); null when not optimised or moved since.',
    }),
    leg_distance_m: Type.Union(
      [Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }), Type.Null()],
      {
        description:
          'Planned metres from the previous stop (the hub for the first): this stop’s share of the distance.',
      },
    ),
    kind: Type.Literal('pickup'),
    pickup: Type.Object({
      id: PrefixedId('pck', 16),
      brand_name: Type.String({ maxLength: 200 }),
      pickup_address: Type.String({ maxLength: 500 }),
      window: Type.Object({ start: Time, end: Time }),
      status: Type.String({ maxLength: 30 }),
      parcels: Type.Array(TrackingRef(), { maxItems: 100000 }),
    }),
  },
  { title: 'Pickup stop' },
);

const DeliveryStop = Type.Object(
  {
    position: Type.Integer({ format: 'int32', minimum: 1, maximum: INT32_MAX }),
    pinned: Type.Boolean({
      description:
        'Pinned by the operator: re-optimising keeps it on this round, in its order among the pins.',
    }),
    planned_arrival: NullableString({
      format: 'date-time',
      maxLength: 30,
      description:
        'When the optimiser plans the courier at the door (service start); null when not optimised or moved since.',
    }),
    leg_distance_m: Type.Union(
      [Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }), Type.Null()],
      {
        description:
          'Planned metres from the previous stop (the hub for the first): this stop’s share of the distance.',
      },
    ),
    kind: Type.Literal('delivery'),
    order: Type.Object({
      tracking_ref: TrackingRef(),
      status: Type.String({ maxLength: 30 }),
      recipient: NullableString({ maxLength: 200 }),
      address: NullableString({ maxLength: 500 }),
      postcode: NullableString({ maxLength: 5 }),
      city: NullableString({ maxLength: 200 }),
      delivery_location: Type.Union([DeliveryLocationSchema, Type.Null()], {
        description:
          "Where the address is (SPEC §11; its precision and source as on the brand's order): for navigation and the map, never on the tracking page.",
      }),
      phone: NullableString({ maxLength: 40 }),
      sort_code: SortCode,
      quantity: Type.Integer({ format: 'int32', minimum: 1, maximum: INT32_MAX }),
      failed_attempts: Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }),
      instructions: NullableString({
        maxLength: 1000,
        description:
          'What the recipient asked on the tracking page (door code, floor…), null when nothing: for the courier of the delivery (their day) and the operator (these rounds), never a brand nor another courier.',
      }),
      safe_place: Type.Union(
        [
          Type.Object({
            kind: StringEnum(['neighbour', 'caretaker', 'behind_door', 'letterbox_area', 'other'] as const),
            detail: NullableString({ maxLength: 200 }),
          }),
          Type.Null(),
        ],
        {
          description:
            'Where the recipient allows the parcel to be left when out, null when nowhere: for the courier of the delivery and the operator, never a brand nor another courier.',
        },
      ),
    }),
  },
  { title: 'Delivery stop' },
);

const StopSchema = Type.Union([PickupStop, DeliveryStop], {
  description: 'A stop as the courier app shows it (decision 0006).',
});

export const RoundSchema = Type.Object({
  id: PrefixedId('rnd', 16),
  date: CalendarDate(),
  name: Name,
  courier_id: NullableString({ maxLength: 20, description: 'Null while unassigned.' }),
  sort_codes: Type.Array(SortCode, { maxItems: 1000 }),
  version: Type.Integer({
    format: 'int32',
    minimum: 1,
    maximum: INT32_MAX,
    description:
      'Each change of the round adds one. Send it back with an edit: an older one is a 409 `round_conflict`.',
  }),
  vehicle_id: NullableString({
    maxLength: 20,
    description: 'The vehicle the optimiser planned it for; null otherwise.',
  }),
  planned_distance_m: Type.Union(
    [Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }), Type.Null()],
    {
      description:
        'Planned metres from the hub back to it (the CO₂ figures’ input); null when not optimised.',
    },
  ),
  planned_duration_s: Type.Union(
    [Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }), Type.Null()],
    {
      description: 'Planned seconds on the road; null when not optimised.',
    },
  ),
  planned_by: NullableString({
    maxLength: 40,
    description: 'The optimiser that planned it (`in-process`, `vroom`); null: by sort code or by hand.',
  }),
  driven_distance_m: Type.Union(
    [Type.Integer({ format: 'int32', minimum: 0, maximum: INT32_MAX }), Type.Null()],
    {
      description:
        'Metres driven from the hub back to it, its stops in the order they were delivered (the CO₂e’s input at data level 3, docs/emissions.md); null until every delivery stop has its outcome, and for a round without a vehicle.',
    },
  ),
  stops: Type.Array(StopSchema, { maxItems: 1000, description: 'In the order they are made.' }),
});

const Version = (what: string) =>
  Type.Integer({
    format: 'int32',
    minimum: 1,
    maximum: INT32_MAX,
    description: `The ${what} version the edit was made on.`,
  });

export const UnplacedSchema = Type.Object(
  {
    kind: StringEnum(['pickup', 'delivery'] as const),
    tracking_ref: Type.Optional(TrackingRef()),
    pickup_id: Type.Optional(Type.String({ maxLength: 64 })),
    reason: StringEnum(['no_vehicle', 'skills', 'capacity', 'time_window', 'shift', 'no_location'] as const, {
      description:
        '`no_vehicle`: no courier has a shift that day; `capacity`: too large for every vehicle, or every round full; `time_window`: its window cannot be met; ' +
        '`shift`: the shifts end too soon (or are full); `no_location`: no place for the address (no postcode point).',
    }),
  },
  { additionalProperties: false },
);

export const PinBody = Type.Object(
  {
    stop: Type.Union(
      [
        Type.Object({ tracking_ref: TrackingRef() }, { additionalProperties: false }),
        Type.Object({ pickup_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
      ],
      { description: 'A stop of the round: a delivery (tracking reference) or a pickup (id).' },
    ),
    pinned: Type.Boolean({
      description: 'True pins it (re-optimising keeps it on this round); false unpins.',
    }),
    version: Version('round’s'),
  },
  { additionalProperties: false },
);

export const MoveBody = Type.Object(
  {
    stop: Type.Union(
      [
        Type.Object({ tracking_ref: TrackingRef() }, { additionalProperties: false }),
        Type.Object({ pickup_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
      ],
      { description: 'A stop of this round.' },
    ),
    to_round_id: Type.String({ maxLength: 100, description: 'Another round of the same day.' }),
    position: Type.Optional(
      Type.Integer({
        format: 'int32',
        minimum: 1,
        maximum: INT32_MAX,
        description: 'Its place there, 1-based (default: last).',
      }),
    ),
    version: Version('round’s'),
    to_version: Version('other round’s'),
  },
  { additionalProperties: false },
);

export const RoundIdParams = Type.Object({
  roundId: Type.String({ maxLength: 100, description: 'The round id, e.g. `rnd_5b1e0c9d3a7f2e64`.' }),
});

const StopInputSchema = Type.Union(
  [
    Type.Object({ tracking_ref: TrackingRef() }, { additionalProperties: false }),
    Type.Object({ pickup_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  ],
  { description: 'A delivery (the order’s tracking reference) or a pickup (its id).' },
);

export const StopsBody = Type.Object(
  {
    stops: Type.Array(StopInputSchema, { maxItems: 1000 }),
    version: Type.Optional(
      Type.Integer({
        format: 'int32',
        minimum: 1,
        maximum: INT32_MAX,
        description: 'The round’s version the edit was made on (an older one: 409 `round_conflict`).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const NewRoundBody = Type.Object(
  {
    date: CalendarDate('The round’s day.'),
    name: Type.String({ minLength: 1, maxLength: 100, description: 'Unique among the day’s rounds.' }),
    courier_id: Type.Optional(
      NullableString({ maxLength: 254, description: 'An enabled courier (id or e-mail).' }),
    ),
    stops: Type.Array(StopInputSchema, { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export const PlanBody = Type.Object(
  {
    date: CalendarDate('The day to plan.'),
    assign: Type.Optional(
      Type.Boolean({ description: 'Give each round without a courier to an enabled courier, round-robin.' }),
    ),
    optimise: Type.Optional(
      Type.Boolean({
        description:
          'Plan with the optimiser (docs/planning.md): the couriers’ shifts and vehicles, the stops’ places, amounts and windows. ' +
          'Without it, the sort-code rounds.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AssignBody = Type.Object(
  {
    courier_id: Type.Optional(
      NullableString({
        maxLength: 254,
        description:
          'An enabled courier (id or e-mail); null unassigns; absent: the round keeps its courier.',
      }),
    ),
    vehicle_id: Type.Optional(
      NullableString({
        maxLength: 100,
        description:
          'An enabled vehicle (id or name); null: none; absent: the round keeps its vehicle. The planned distance and times stay until the day is optimised again.',
      }),
    ),
    version: Type.Optional(Version('round’s')),
  },
  { additionalProperties: false },
);

export const RoundsQuery = Type.Object({ date: CalendarDate('The day.') }, { additionalProperties: false });
