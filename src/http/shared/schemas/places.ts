import { Type } from '@sinclair/typebox';
import { PRICING_ZONES } from '../../../domain/coverage/zones.ts';
import { LOCATION_PRECISIONS, LOCATION_SOURCES } from '../../../domain/places/location.ts';
import { ADDRESS_WARNING_CODES } from '../../../domain/places/warnings.ts';
import { StringEnum } from './shared.ts';

/** The schemas of places (SPEC §11): an order's delivery_location and address_warnings, the validation route. */

export const LatitudeInput = (description: string) =>
  Type.Number({ minimum: -90, maximum: 90, description, examples: [48.858828] });
export const LongitudeInput = (description: string) =>
  Type.Number({ minimum: -180, maximum: 180, description, examples: [2.379506] });

export const DeliveryLocationSchema = Type.Object(
  {
    lat: Type.Number({
      minimum: -90,
      maximum: 90,
      description: 'Latitude, WGS 84 decimal degrees (6 decimals at most).',
    }),
    lng: Type.Number({ minimum: -180, maximum: 180, description: 'Longitude, WGS 84 decimal degrees.' }),
    precision: StringEnum(LOCATION_PRECISIONS, {
      description:
        "`rooftop`: the house number; `street`: the street (or a delivery learned to ~100 m); `locality`: a named place or a commune's centre; `postcode`: the postcode's point (no geocoder's word).",
    }),
    source: StringEnum(LOCATION_SOURCES, {
      description:
        "`brand`: the order's `delivery_lat`/`delivery_lng` (or the shop's shipping address); `geocoder`: the Base Adresse Nationale or the operator's addok; `delivery`: where an earlier parcel to the same address was delivered; `postcode`: the offline default.",
    }),
  },
  { additionalProperties: false },
);

const AddressWarningSchema = Type.Object(
  {
    code: StringEnum(ADDRESS_WARNING_CODES, {
      description:
        '`address_uncertain`: the geocoder could not place the address surely (score under 0.5); `postcode_mismatch`: it places it in another postcode than the one written; `address_check_pending`: the check is still running (the order is placed at its postcode meanwhile); `address_check_unavailable`: the geocoder is unavailable (checked again later).',
    }),
    message: Type.String({ maxLength: 500 }),
  },
  { additionalProperties: false },
);

export const deliveryLocationField = Type.Union([DeliveryLocationSchema, Type.Null()], {
  description:
    '**Extension.** Where the delivery address is (SPEC §11), for the brand that owns the order and its courier; never shown on the tracking page. Null while the order awaits its address.',
});
export const addressWarningsField = Type.Array(AddressWarningSchema, {
  maxItems: 10,
  description:
    '**Extension.** What may be wrong with the delivery address. A warning never refuses the order: correct the address with `PATCH /orders/{trackingRef}`, which checks it again (`order.address_flagged` tells when an address gets flagged).',
});

export const AddressValidateRequest = Type.Object(
  {
    address: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'A French address as a customer types it, with its postcode.',
      examples: ['12 Place Léon Blum, 75011 Paris'],
    }),
    postcode: Type.Optional(
      Type.Union([
        Type.String({
          maxLength: 10,
          description: "The postcode, when typed apart (it wins over the address's).",
          examples: ['75011'],
        }),
        Type.Null(),
      ]),
    ),
  },
  { additionalProperties: false },
);

export const AddressValidateResponse = Type.Object(
  {
    ok: Type.Literal(true),
    available: Type.Boolean({ description: 'Whether an order to this address would be accepted.' }),
    reason: Type.Union(
      [
        Type.Object({
          code: StringEnum(['invalid_address', 'out_of_zone'] as const, {
            description: 'The error an order to this address would get (422).',
          }),
          message: Type.String({ maxLength: 500 }),
        }),
        Type.Null(),
      ],
      { description: 'Why an order would be refused; null when it would be accepted.' },
    ),
    address: Type.String({
      maxLength: 500,
      description: 'The address as the geocoder writes it, else as given.',
    }),
    postcode: Type.Union([Type.String({ maxLength: 5 }), Type.Null()]),
    city: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
    zone: Type.Union([StringEnum(PRICING_ZONES), Type.Null()], {
      description: 'The pricing zone (SPEC §7).',
    }),
    sort_code: Type.Union([Type.String({ maxLength: 16 }), Type.Null()], {
      description: "The hub's sort code, as printed on the label (SPEC §10).",
    }),
    score: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: "The geocoder's score (0 to 1); null without a geocoder's answer.",
    }),
    precision: Type.Union([StringEnum(LOCATION_PRECISIONS), Type.Null()]),
    location: Type.Union([DeliveryLocationSchema, Type.Null()]),
    warnings: Type.Array(AddressWarningSchema, { maxItems: 10 }),
  },
  { description: 'The address checked: where it is, whether it is served, its sort code and its warnings.' },
);
