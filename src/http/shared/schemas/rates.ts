import { Type } from '@sinclair/typebox';
import { SERVICE_CODES, SERVICES } from '../../../domain/pricing/services.ts';
import { UNAVAILABLE_REASONS } from '../../../domain/rates/quote-rates.ts';
import { CalendarDate, StringEnum } from './shared.ts';

// One `enum` rather than a union of constants: generators make it one enum type, and a wrong
// value gets one error naming the allowed values rather than one "must be equal to constant" each.
export const ServiceSchema = StringEnum(SERVICE_CODES, {
  description:
    'Delivery service: `express` (same day), `standard` (next business day), `economy` (3 business days).',
});

export const UnitTypeInput = Type.String({
  maxLength: 30,
  description:
    '`parcel` (default), `envelope`, `bulky` or `pallet`; French aliases `colis`, `pli`, `encombrant`, `palette`; any case.',
  examples: ['parcel'],
});
export const UnitWeightInput = Type.Union([Type.String({ maxLength: 30 }), Type.Number()], {
  description:
    'Weight of one unit: a decimal with an optional unit, e.g. `"2.5"` (kg), `"2.5kg"`, `"2,5 kg"`, `"500g"`. Default `"1kg"`.',
  examples: ['2.5kg'],
});
export const QuantityInput = Type.Integer({
  format: 'int32',
  minimum: 1,
  maximum: 1000,
  description: 'Number of units (default 1).',
});

export const RatesRequest = Type.Object(
  {
    delivery_address: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          'Free-form French address; its last 5-digit token is the postcode (else a split one such as `75 011`).',
      }),
    ),
    delivery_zip: Type.Optional(
      Type.String({
        maxLength: 10,
        description:
          'Destination postcode (spaces inside are ignored: `75 011` is `75011`); wins over `delivery_address` when both are given.',
        examples: ['75011'],
      }),
    ),
    unit_type: Type.Optional(UnitTypeInput),
    quantity: Type.Optional(QuantityInput),
    unit_weight: Type.Optional(UnitWeightInput),
  },
  {
    additionalProperties: false,
    description: 'A destination (`delivery_zip` or `delivery_address`) is required.',
  },
);

const RateSchema = Type.Object({
  service: ServiceSchema,
  name: Type.Unsafe<string>({
    type: 'string',
    enum: SERVICE_CODES.map((code) => SERVICES[code].name),
    examples: ['Standard — next business day'],
  }),
  price_eur: Type.Number({ description: 'Price including VAT, in euros.', examples: [10.08] }),
  price_excl_tax_eur: Type.Number({ description: 'Price excluding VAT, in euros.', examples: [8.4] }),
  vat_rate: Type.Number({ examples: [0.2] }),
  currency: Type.Literal('EUR'),
  delay_business_days: Type.Integer({ format: 'int32', minimum: 0, maximum: 30 }),
  promised_date: CalendarDate('Promised delivery day (Europe/Paris).'),
});

export const RatesResponse = Type.Object(
  {
    ok: Type.Literal(true),
    available: Type.Boolean({
      description:
        "False, with no rates, when the destination is out of zone or unknown, or when the brand's grid is incomplete for this request (any service it offers has no price for this zone, unit type and weight).",
    }),
    rates: Type.Array(RateSchema, {
      maxItems: SERVICE_CODES.length,
      description: 'Every service the grid offers, cheapest first (one per service); empty when unavailable.',
    }),
    reason: Type.Optional(
      StringEnum(UNAVAILABLE_REASONS, {
        description:
          '**Extension.** With `available: false` only (absent otherwise): why. `out_of_zone`: a real postcode outside the ' +
          'delivery zone (Île-de-France): offer another carrier. `unknown_postcode`: no postcode found, or one that does not ' +
          "exist: ask the shopper to check the address. `incomplete_grid`: the brand's grid has no price for one of its " +
          'services for this zone, unit type and weight: the brand (not the shopper) completes it.',
      }),
    ),
  },
  { description: 'The services available for this destination and load.' },
);
