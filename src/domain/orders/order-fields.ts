import type { PricingZone } from '../coverage/zones.ts';
import type { DataLevel } from '../emissions/allocation.ts';
import type { VehicleKind } from '../emissions/emission-factors.ts';
import type { LocationPrecision, LocationSource } from '../places/location.ts';
import type { AddressWarning } from '../places/warnings.ts';
import type { ServiceCode } from '../pricing/services.ts';
import type { UnitType } from '../pricing/units.ts';
import type { OrderStatus } from './state-machine.ts';

/**
 * How a field is shown in the order's public JSON: as is, cents as euros, an instant as RFC 3339.
 * `vat_rate` is derived from another field (the rate once the order is priced), `location` from
 * four (`delivery_location`: the point, its precision and source, or null), `co2e` from three (the
 * greenhouse gases of a delivered or returned order, or null); `warnings` is a JSON
 * array rendered member by member (so its text is JSON.stringify's whatever the column holds);
 * `tracking_url` is the recipient's page for the tracking token, which is never shown raw.
 */
export type JsonForm =
  | 'plain'
  | 'euros'
  | 'instant'
  | 'vat_rate'
  | 'location'
  | 'co2e'
  | 'warnings'
  | 'tracking_url';

/** Who may write a column: only the INSERT, also an update of the order's details, or nobody. */
export type Writable = 'insert' | 'update' | 'never';

interface FieldSpec {
  /** The `Order` property; null for a JSON value computed from other fields. */
  field: string | null;
  column: string | null;
  json: { name: string; form: JsonForm } | null;
  write: Writable;
}

/** A field whose TypeScript type is `T`: the spec keeps it as a phantom for the `Order` type below. */
const field =
  <T>() =>
  <const S extends FieldSpec>(spec: S) =>
    spec as S & { readonly __type?: T };

const plain = <const N extends string>(name: N) => ({ name, form: 'plain' }) as const;

/**
 * The order's one column map, in the order of its public JSON: the `Order` type, the SELECT list,
 * row → Order, the INSERT list, what an update may set, `orderJson` and its SQL rendering are all
 * derived from it. A new field is one entry here, one in the OpenAPI schema and one migration.
 */
export const ORDER_FIELDS = [
  field<number>()({ field: 'id', column: 'id', json: null, write: 'never' }),
  field<string>()({
    field: 'trackingRef',
    column: 'tracking_ref',
    json: plain('tracking_ref'),
    write: 'insert',
  }),
  // Unguessable (random, not derived from the ref): whoever holds it sees the recipient's page.
  field<string>()({
    field: 'trackingToken',
    column: 'tracking_token',
    json: { name: 'tracking_url', form: 'tracking_url' },
    write: 'insert',
  }),
  field<string>()({ field: 'brandId', column: 'brand_id', json: null, write: 'insert' }),
  field<OrderStatus>()({ field: 'status', column: 'status', json: plain('status'), write: 'insert' }),
  // False for a test key's order (test mode, migration 0050): never dispatched, billed or sent.
  field<boolean>()({ field: 'livemode', column: 'livemode', json: plain('livemode'), write: 'insert' }),
  field<string | null>()({
    field: 'reference',
    column: 'reference',
    json: plain('reference'),
    write: 'update',
  }),
  // Null once the recipient's data is erased (retention or request: domain/privacy).
  field<string | null>()({
    field: 'customerEmail',
    column: 'customer_email',
    json: plain('customer_email'),
    write: 'insert',
  }),
  field<number | null>()({
    field: 'amountCents',
    column: 'amount_cents',
    json: { name: 'amount_eur', form: 'euros' },
    write: 'insert',
  }),
  field<string | null>()({
    field: 'pickupAddress',
    column: 'pickup_address',
    json: plain('pickup_address'),
    write: 'update',
  }),
  field<string | null>()({
    field: 'deliveryAddress',
    column: 'delivery_address',
    json: plain('delivery_address'),
    write: 'update',
  }),
  field<string | null>()({
    field: 'deliveryPostcode',
    column: 'delivery_postcode',
    json: plain('delivery_postcode'),
    write: 'update',
  }),
  field<string | null>()({
    field: 'deliveryCity',
    column: 'delivery_city',
    json: plain('delivery_city'),
    write: 'update',
  }),
  field<PricingZone | null>()({
    field: 'deliveryZone',
    column: 'delivery_zone',
    json: null,
    write: 'update',
  }),
  field<string | null>()({
    field: 'deliveryRecipient',
    column: 'delivery_recipient',
    json: plain('delivery_recipient'),
    write: 'update',
  }),
  field<string | null>()({
    field: 'deliveryPhone',
    column: 'delivery_phone',
    json: plain('delivery_phone'),
    write: 'update',
  }),
  field<string | null>()({
    field: 'deliveryEmail',
    column: 'delivery_email',
    json: plain('delivery_email'),
    write: 'update',
  }),
  // Where the address is (SPEC §11, migration 0046): all four or none; shown as `delivery_location`.
  field<number | null>()({ field: 'deliveryLat', column: 'delivery_lat', json: null, write: 'update' }),
  field<number | null>()({ field: 'deliveryLng', column: 'delivery_lng', json: null, write: 'update' }),
  field<LocationPrecision | null>()({
    field: 'deliveryLocationPrecision',
    column: 'delivery_location_precision',
    json: null,
    write: 'update',
  }),
  field<LocationSource | null>()({
    field: 'deliveryLocationSource',
    column: 'delivery_location_source',
    json: null,
    write: 'update',
  }),
  field<never>()({
    field: null,
    column: null,
    json: { name: 'delivery_location', form: 'location' },
    write: 'never',
  }),
  field<AddressWarning[]>()({
    field: 'addressWarnings',
    column: 'address_warnings',
    json: { name: 'address_warnings', form: 'warnings' },
    write: 'update',
  }),
  // Set while the geocoder's word is awaited (the check_addresses job); never shown.
  field<Date | null>()({
    field: 'addressCheckDueAt',
    column: 'address_check_due_at',
    json: null,
    write: 'update',
  }),
  field<ServiceCode>()({ field: 'service', column: 'service', json: plain('service'), write: 'insert' }),
  field<UnitType>()({ field: 'unitType', column: 'unit_type', json: plain('unit_type'), write: 'insert' }),
  field<number>()({ field: 'quantity', column: 'quantity', json: plain('quantity'), write: 'insert' }),
  field<number>()({
    field: 'unitWeightGrams',
    column: 'unit_weight_grams',
    json: plain('unit_weight_grams'),
    write: 'insert',
  }),
  field<number | null>()({
    field: 'priceCents',
    column: 'price_cents',
    json: { name: 'price_eur', form: 'euros' },
    write: 'update',
  }),
  field<number | null>()({
    field: 'priceExclTaxCents',
    column: 'price_excl_tax_cents',
    json: { name: 'price_excl_tax_eur', form: 'euros' },
    write: 'update',
  }),
  field<number | null>()({ field: 'vatCents', column: 'vat_cents', json: null, write: 'update' }),
  field<never>()({ field: null, column: null, json: { name: 'vat_rate', form: 'vat_rate' }, write: 'never' }),
  field<string | null>()({
    field: 'promisedDate',
    column: 'promised_date',
    json: plain('promised_date'),
    write: 'update',
  }),
  // The greenhouse gases of a delivered or returned order (SPEC §14, migration 0053), set by the
  // move's own statement (domain/emissions): all six or none; shown as `co2e`.
  field<number | null>()({ field: 'co2eGrams', column: 'co2e_grams', json: null, write: 'update' }),
  field<DataLevel | null>()({
    field: 'co2eDataLevel',
    column: 'co2e_data_level',
    json: null,
    write: 'update',
  }),
  field<string | null>()({ field: 'co2eMethod', column: 'co2e_method', json: null, write: 'update' }),
  field<VehicleKind | null>()({ field: 'co2eVehicle', column: 'co2e_vehicle', json: null, write: 'update' }),
  field<number | null>()({ field: 'co2eDistanceM', column: 'co2e_distance_m', json: null, write: 'update' }),
  field<Date | null>()({ field: 'co2eAt', column: 'co2e_at', json: null, write: 'update' }),
  field<never>()({ field: null, column: null, json: { name: 'co2e', form: 'co2e' }, write: 'never' }),
  // The pickup collecting the parcel (migration 0030); null while it is not collectable.
  field<string | null>()({ field: 'pickupId', column: 'pickup_id', json: null, write: 'update' }),
  field<Date | null>()({ field: 'pickedUpAt', column: 'picked_up_at', json: null, write: 'never' }),
  field<Date>()({
    field: 'createdAt',
    column: 'created_at',
    json: { name: 'created_at', form: 'instant' },
    write: 'insert',
  }),
  field<Date>()({
    field: 'updatedAt',
    column: 'updated_at',
    json: { name: 'updated_at', form: 'instant' },
    write: 'never',
  }),
] as const;

type Entry = (typeof ORDER_FIELDS)[number];
type Stored = Extract<Entry, { field: string }>;

/** A delivery order as the domain sees it (SPEC §5); `id` is internal, keyset pagination breaks ties on it. */
export type Order = {
  -readonly [F in Stored as F['field']]: F extends { readonly __type?: infer T } ? T : never;
};

/** The stored fields, with their columns. */
export const ORDER_COLUMNS: ReadonlyArray<{ field: keyof Order; column: string; write: Writable }> =
  ORDER_FIELDS.filter((f): f is Stored => f.field !== null).map((f) => ({
    field: f.field,
    column: f.column,
    write: f.write,
  }));

/** The public JSON's members, in order; `field` is where the value comes from (null: derived). */
export const ORDER_JSON_MEMBERS: ReadonlyArray<{ name: string; form: JsonForm; field: keyof Order | null }> =
  ORDER_FIELDS.flatMap((f) =>
    f.json === null ? [] : [{ name: f.json.name, form: f.json.form, field: f.field as keyof Order | null }],
  );

/** An order's greenhouse-gas columns before it is delivered or returned. */
export const NO_CO2E = {
  co2eGrams: null,
  co2eDataLevel: null,
  co2eMethod: null,
  co2eVehicle: null,
  co2eDistanceM: null,
  co2eAt: null,
} as const satisfies Partial<Order>;
