import { Type } from '@sinclair/typebox';
import { MAX_AMOUNT_EUR } from '../../../domain/orders/order-input.ts';
import { CHANGE_FEED_LAG_MS, ORDER_SORTS } from '../../../domain/orders/order-page.ts';
import { ORDER_STATUSES } from '../../../domain/orders/state-machine.ts';
import { MAX_QUANTITY, MAX_UNIT_WEIGHT_GRAMS, UNIT_TYPES } from '../../../domain/pricing/units.ts';
import { SCENARIO_NAMES } from '../../../domain/test-mode/scenarios.ts';
import { co2eField } from './emissions.ts';
import { addressWarningsField, deliveryLocationField, LatitudeInput, LongitudeInput } from './places.ts';
import { FailedAttemptSchema, ProofOfDeliverySchema } from './proofs.ts';
import { QuantityInput, ServiceSchema, UnitTypeInput, UnitWeightInput } from './rates.ts';
import {
  DATE_MAX_LENGTH,
  NullableNumber,
  NullableString,
  PATH_PARAM_MAX_LENGTH,
  Page,
  PageCursor,
  PageLimit,
  StringEnum,
  Timestamp,
  TrackingRef,
} from './shared.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const optionalText = (maxLength: number, description: string, examples?: string[]) =>
  Type.Optional(Nullable(Type.String({ maxLength, description, examples })));

export const OrderStatusSchema = StringEnum(ORDER_STATUSES, {
  description:
    'awaiting_address → pending → picked_up → in_transit → out_for_delivery → delivered; out_for_delivery → failed_attempt → ' +
    'out_for_delivery or returned; awaiting_address | pending → cancelled.',
});

const EmailInput = (description: string) =>
  Type.String({ format: 'email', maxLength: 254, description, examples: ['jane@example.com'] });

export const OrderCreateRequest = Type.Object(
  {
    customer_email: EmailInput("E-mail of the brand's customer."),
    amount_eur: Type.Optional(
      Type.Union([
        Type.Number({
          minimum: 0,
          maximum: MAX_AMOUNT_EUR,
          description:
            `Value of the goods in euros, from 0 to ${MAX_AMOUNT_EUR.toLocaleString('en')}.00, with at most 2 decimals ` +
            '(checked on the decimal as sent, not with `multipleOf`, which is unreliable on binary floats): ' +
            '`49.9` and `49.90` are accepted, `49.999` is refused with 400.',
          examples: [49.9],
        }),
        Type.Null(),
      ]),
    ),
    pickup_address: optionalText(
      500,
      "Where the parcel is collected: an Île-de-France address with its postcode. Defaults to the brand's pickup address; required (422 `invalid_address`) when the brand has none.",
      ['5 rue du Dépôt 93200 Saint-Denis'],
    ),
    delivery_address: optionalText(
      500,
      'Free-form French address with its postcode; omit it to create the order awaiting its address.',
      ['12 rue Oberkampf 75011 Paris'],
    ),
    delivery_recipient: optionalText(200, 'Name of the recipient.'),
    delivery_phone: optionalText(40, 'French or international number; stored in E.164.', ['06 12 34 56 78']),
    delivery_email: Type.Optional(Type.Union([EmailInput('E-mail of the recipient.'), Type.Null()])),
    service: Type.Optional(Type.Union([ServiceSchema, Type.Null()], { description: 'Default `standard`.' })),
    unit_type: Type.Optional(Type.Union([UnitTypeInput, Type.Null()])),
    quantity: Type.Optional(Type.Union([QuantityInput, Type.Null()])),
    unit_weight: Type.Optional(Type.Union([UnitWeightInput, Type.Null()])),
    reference: optionalText(100, "The brand's own order number.", ['CMD-10042']),
    test_scenario: Type.Optional(
      Type.Union(
        SCENARIO_NAMES.map((s) => Type.Literal(s)),
        {
          description:
            '**Extension.** Test keys only (a live key: 403 `test_mode_only`): the test order then plays this scenario by itself, one step every few seconds (TEST_MODE_STEP_MS), with the events, webhooks and notifications of a live order. See docs/test-mode.md.',
        },
      ),
    ),
    delivery_lat: Type.Optional(
      Type.Union([
        LatitudeInput(
          "**Extension.** The delivery's latitude, when the brand knows it (WGS 84, at most 6 decimals), with `delivery_lng` (both or neither) and `delivery_address`. In Île-de-France, else 400. Trusted: the address is then not geocoded.",
        ),
        Type.Null(),
      ]),
    ),
    delivery_lng: Type.Optional(
      Type.Union([
        LongitudeInput("**Extension.** The delivery's longitude, with `delivery_lat`."),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

export const OrderPatchRequest = Type.Object(
  {
    delivery_address: optionalText(500, 'New delivery address: located, priced and dated afresh.'),
    delivery_recipient: optionalText(200, 'Name of the recipient.'),
    delivery_phone: optionalText(40, 'French or international number.'),
    delivery_email: Type.Optional(Type.Union([EmailInput('E-mail of the recipient.'), Type.Null()])),
    pickup_address: optionalText(
      500,
      'Where the parcel is collected: an Île-de-France address with its postcode.',
    ),
    reference: optionalText(100, "The brand's own order number."),
    delivery_lat: Type.Optional(
      Type.Union([
        LatitudeInput(
          "**Extension.** The delivery's point, with `delivery_lng` (both or neither): the order is placed there. Both null: placed again from the address. A new `delivery_address` without them drops the brand's point.",
        ),
        Type.Null(),
      ]),
    ),
    delivery_lng: Type.Optional(
      Type.Union([LongitudeInput('**Extension.** With `delivery_lat`.'), Type.Null()]),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

const nullableNumber = (description?: string) => NullableNumber(description ? { description } : {});

const OrderEventSchema = Type.Object({
  status: OrderStatusSchema,
  at: Timestamp(),
  note: NullableString({ maxLength: 500 }),
});

const orderFields = {
  tracking_ref: TrackingRef(),
  tracking_url: Type.String({
    format: 'uri',
    maxLength: 2048,
    description:
      "The recipient's tracking page (no account needed): share it with the recipient. It carries an unguessable token, unrelated to `tracking_ref`; the page shows the status, the promised date and the destination's postcode and city, never the recipient's name, address, phone or e-mail.",
  }),
  status: OrderStatusSchema,
  livemode: Type.Boolean({
    description:
      '**Extension.** False for an order made with a test key (`dlv_test_…`, docs/test-mode.md): never collected, delivered nor billed, its messages kept in the development outbox, its label a SPECIMEN. Live keys never see test orders, nor test keys live ones.',
  }),
  reference: NullableString({ maxLength: 100, description: "The brand's own order number." }),
  customer_email: NullableString({
    format: 'email',
    maxLength: 254,
    description:
      "The brand's customer's e-mail. Null, like the delivery address, recipient, phone and e-mail, once the recipient's personal data is erased: a year (by default) after the order was delivered, returned or cancelled, or at the recipient's request; the last history entry says which. Postcode, city, price, reference and dates stay.",
  }),
  amount_eur: nullableNumber('Value of the goods.'),
  pickup_address: NullableString({ maxLength: 500 }),
  delivery_address: NullableString({ maxLength: 500 }),
  delivery_postcode: NullableString({ pattern: '^[0-9]{5}$', maxLength: 5 }),
  delivery_city: NullableString({ maxLength: 100 }),
  delivery_recipient: NullableString({ maxLength: 200 }),
  delivery_phone: NullableString({ pattern: '^\\+[1-9][0-9]{1,14}$', maxLength: 16, description: 'E.164.' }),
  delivery_email: NullableString({ format: 'email', maxLength: 254 }),
  delivery_location: deliveryLocationField,
  address_warnings: addressWarningsField,
  service: ServiceSchema,
  unit_type: StringEnum(UNIT_TYPES),
  quantity: Type.Integer({ format: 'int32', minimum: 1, maximum: MAX_QUANTITY }),
  unit_weight_grams: Type.Integer({ format: 'int32', minimum: 1, maximum: MAX_UNIT_WEIGHT_GRAMS }),
  price_eur: nullableNumber(
    'Delivery price incl. VAT, fixed when the address is known; null while awaiting it.',
  ),
  price_excl_tax_eur: nullableNumber(),
  vat_rate: nullableNumber(),
  promised_date: NullableString({
    format: 'date',
    maxLength: DATE_MAX_LENGTH,
    description: 'Promised delivery day (Europe/Paris).',
  }),
  co2e: co2eField,
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

export const OrderSummarySchema = Type.Object(orderFields, { $id: 'OrderSummary', title: 'OrderSummary' });
export const OrderSchema = Type.Object(
  {
    ...orderFields,
    events: Type.Array(OrderEventSchema, { description: 'Status history, oldest first.' }),
  },
  { $id: 'Order', title: 'Order' },
);

export const OrderResponse = Type.Object(
  { ok: Type.Literal(true), order: Type.Ref(OrderSchema) },
  { description: 'The order with its history.' },
);
/**
 * `GET /orders/{tracking_ref}`: the order with its proof members, rendered at each answer (their
 * links are signed then and expire), so they are the detail's and the delivery webhooks', not every
 * answer's (decision 0006).
 */
export const OrderDetailResponse = Type.Object(
  {
    ok: Type.Literal(true),
    order: Type.Intersect([
      Type.Ref(OrderSchema),
      Type.Object({ proof_of_delivery: ProofOfDeliverySchema, failed_attempt: FailedAttemptSchema }),
    ]),
  },
  { description: 'The order with its history and its proof of delivery or last failed attempt.' },
);
export const OrderCreatedResponse = Type.Object(
  {
    ok: Type.Literal(true),
    trackingRef: TrackingRef(),
    order: Type.Ref(OrderSchema),
  },
  { description: 'The created order (or, with a replayed Idempotency-Key, the first response).' },
);
export const OrderListResponse = Page(
  'orders',
  Type.Ref(OrderSummarySchema),
  'A page of orders, newest first.',
);

export const OrderListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Unsafe<string>({
        type: 'string',
        enum: [...ORDER_STATUSES],
        description: 'Only orders in this status.',
      }),
    ),
    limit: PageLimit,
    cursor: PageCursor,
    sort: Type.Optional(
      Type.Unsafe<string>({
        type: 'string',
        enum: [...ORDER_SORTS],
        default: 'created_at',
        description:
          '`created_at`: newest order first (the default). `updated_at`: the change feed, for polling — every ' +
          'order by its last change (`updated_at`, then id), oldest first. The feed shows changes about ' +
          `${CHANGE_FEED_LAG_MS / 1000} s after they are made: a change is stamped before it commits, so the ` +
          'feed leaves writes that long to commit rather than move past one that commits late. Walk it with ' +
          '`next_cursor` until null, then poll again later with `updated_after` set to the `updated_at` of the ' +
          'last order received: each change is then seen exactly once (an order changed again reappears).',
      }),
    ),
    updated_after: Type.Optional(
      Type.String({
        format: 'date-time',
        maxLength: 40,
        description:
          'With `sort=updated_at` only (400 otherwise): orders changed strictly after this RFC 3339 instant.',
        examples: ['2026-11-24T09:12:00.000Z'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const TrackingRefParams = Type.Object({
  trackingRef: Type.String({
    maxLength: PATH_PARAM_MAX_LENGTH,
    description:
      "The order's trackingRef, e.g. `DLV-7K3M9Q2XHP` (any case; O for 0 and I or L for 1 are accepted). " +
      'A reference that names no order of the brand is a 404, whatever its shape.',
  }),
});

/**
 * The `Idempotency-Key` header of every write of the public API (Fastify matches header names in
 * lower case; the document spells it as clients send it).
 */
export const IdempotencyHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      maxLength: 255,
      description:
        'Makes the request safe to retry: 1 to 255 printable ASCII characters, chosen by the client (a UUID). ' +
        'The first answer (a success) is stored for 24 h per brand and replayed, with `Idempotent-Replayed: true`, ' +
        'to a retry with the same key and the same request; the same key with another request is a 422 ' +
        '`idempotency_key_reused`, and while the first is still being processed a 409 `idempotency_conflict`. ' +
        'A refused request stores nothing: the key can be used again.',
    }),
  ),
});
