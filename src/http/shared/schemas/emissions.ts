import { Type } from '@sinclair/typebox';
import { VEHICLE_KINDS } from '../../../domain/emissions/emission-factors.ts';
import { StringEnum } from './shared.ts';

/** The schemas of greenhouse gases (SPEC §14): an order's `co2e`, the monthly statement. */

const DataLevelSchema = Type.Integer({
  format: 'int32',
  minimum: 1,
  maximum: 4,
  description:
    "The data level of the Code des transports (D1431-1 ff.) and ISO 14083: 1 default values (the default distance by zone and service, or no vehicle known); 2 the round's vehicle and planned distance; 3 the round's vehicle and the distance it was driven (set when the round finishes); 4 measured consumption (not produced). See docs/emissions.md, Data levels.",
});

const VehicleKindSchema = StringEnum(VEHICLE_KINDS, {
  description:
    '`van`: diesel light commercial vehicle; `electric_van`: electric, French grid; `cargo_bike`: electrically assisted, French grid; `on_foot`.',
});

const Co2eSchema = Type.Object(
  {
    grams: Type.Integer({
      format: 'int32',
      minimum: 0,
      maximum: 2_147_483_647,
      description: 'Grams (g, not kg) of CO₂e, well to wheel.',
    }),
    data_level: DataLevelSchema,
    method: Type.String({
      maxLength: 80,
      description: 'The method and factor table it was computed with (docs/emissions.md).',
    }),
    vehicle: VehicleKindSchema,
  },
  { additionalProperties: false },
);

export const co2eField = Type.Union([Co2eSchema, Type.Null()], {
  description:
    "**Extension.** The greenhouse gases the delivery emitted (Code des transports L1431-3): the order's share of its rounds' distance × the vehicle's ADEME factor, allocated by parcel (ISO 14083). Set when the order is delivered or returned; null before.",
});

const StatementRowSchema = Type.Object(
  {
    vehicle: VehicleKindSchema,
    data_level: DataLevelSchema,
    orders: Type.Integer({ format: 'int32', minimum: 0, maximum: 2_147_483_647 }),
    parcels: Type.Integer({ format: 'int32', minimum: 0, maximum: 2_147_483_647 }),
    distance_km: Type.Number({
      minimum: 0,
      description: "The orders' share of the distance driven, km (3 decimals).",
    }),
    co2e_kg: Type.Number({
      minimum: 0,
      description:
        "Kilograms (kg) of CO₂e, 3 decimals: the orders' grams summed ÷ 1000 (the CSV gives the grams).",
    }),
  },
  { additionalProperties: false },
);

export const EmissionStatementSchema = Type.Object(
  {
    period: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}$', maxLength: 7 }),
    totals: Type.Object(
      {
        orders: Type.Integer({ format: 'int32', minimum: 0, maximum: 2_147_483_647 }),
        parcels: Type.Integer({ format: 'int32', minimum: 0, maximum: 2_147_483_647 }),
        distance_km: Type.Number({ minimum: 0 }),
        co2e_kg: Type.Number({
          minimum: 0,
          description: "Kilograms (kg) of CO₂e: the orders' grams summed ÷ 1000.",
        }),
      },
      { additionalProperties: false },
    ),
    by_vehicle: Type.Array(StatementRowSchema, {
      maxItems: 64,
      description: 'By vehicle kind and data level.',
    }),
    data_levels: Type.Array(DataLevelSchema, { maxItems: 4, description: 'The data levels of the figures.' }),
    method: Type.String({ maxLength: 80 }),
    method_text: Type.String({ maxLength: 4000, description: 'The method as the decree requires it told.' }),
  },
  { $id: 'EmissionStatement', title: 'EmissionStatement', additionalProperties: false },
);
