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
  stops: Type.Array(StopSchema, { maxItems: 1000, description: 'In the order they are made.' }),
});

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
  { stops: Type.Array(StopInputSchema, { maxItems: 1000 }) },
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
  },
  { additionalProperties: false },
);

export const AssignBody = Type.Object(
  {
    courier_id: NullableString({
      maxLength: 254,
      description: 'An enabled courier (id or e-mail); null unassigns.',
    }),
  },
  { additionalProperties: false },
);

export const RoundsQuery = Type.Object({ date: CalendarDate('The day.') }, { additionalProperties: false });
