import { createRequire } from 'node:module';
import type * as PhoneNumbers from 'libphonenumber-js';
import { AppError, invalidField, validateFields } from '../../errors.ts';
import { locateAddresses, type Place } from '../coverage/locate-address.ts';
import { parseBrandPoint } from '../places/coordinates.ts';
import type { GeoPoint } from '../places/location.ts';
import { eurosToCents, hasAtMostTwoDecimals } from '../pricing/money.ts';
import { DEFAULT_SERVICE, parseService } from '../pricing/services.ts';
import { DEFAULT_UNIT_TYPE, parseQuantity, parseUnitType, parseWeightGrams } from '../pricing/units.ts';
import type { Order } from './order.ts';

// libphonenumber-js (~110 modules) is loaded by the first phone number parsed, not by every process
// that wires the services (a `dlv` command, the worker): its CommonJS build, which the same package
// ships with the same metadata, because a parse is synchronous.
let phoneNumbers: typeof PhoneNumbers | null = null;
const phoneLibrary = (): typeof PhoneNumbers =>
  (phoneNumbers ??= createRequire(import.meta.url)('libphonenumber-js') as typeof PhoneNumbers);

/** The body of `POST /orders` as the schema admits it (types checked, values not yet). */
export interface OrderInput {
  customer_email: string;
  amount_eur?: number | null;
  pickup_address?: string | null;
  delivery_address?: string | null;
  delivery_recipient?: string | null;
  delivery_phone?: string | null;
  delivery_email?: string | null;
  service?: string | null;
  unit_type?: string | null;
  quantity?: number | null;
  unit_weight?: string | number | null;
  reference?: string | null;
  /** Test orders only (checked by the route: test-mode/scenarios.ts). */
  test_scenario?: string;
  /** The delivery's point (WGS 84), when the brand knows it: both or neither (SPEC §11). */
  delivery_lat?: number | null;
  delivery_lng?: number | null;
}

/** Fields a brand may change with `PATCH /orders/{trackingRef}` while the order is editable. */
export type OrderPatch = Pick<
  OrderInput,
  | 'delivery_address'
  | 'delivery_recipient'
  | 'delivery_phone'
  | 'delivery_email'
  | 'pickup_address'
  | 'reference'
  | 'delivery_lat'
  | 'delivery_lng'
>;

/**
 * The order's own fields once checked: the same names and types as on the Order itself, and the
 * brand's point of the delivery (null: none given).
 */
export type ValidatedOrderInput = { deliveryPoint: GeoPoint | null } & Pick<
  Order,
  | 'customerEmail'
  | 'amountCents'
  | 'pickupAddress'
  | 'deliveryAddress'
  | 'deliveryRecipient'
  | 'deliveryPhone'
  | 'deliveryEmail'
  | 'service'
  | 'unitType'
  | 'quantity'
  | 'unitWeightGrams'
  | 'reference'
>;

/** 100 million euros: beyond that it is a typo. Well inside `bigint` and JS's safe integers in cents. */
export const MAX_AMOUNT_EUR = 100_000_000;
export const MAX_AMOUNT_CENTS = MAX_AMOUNT_EUR * 100;

const text = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

export function parseAmount(value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  // The bound is checked on the euros, before any conversion: 1e15 € has no safe number of cents.
  if (value > MAX_AMOUNT_EUR) throw invalidField('amount_eur', `must be <= ${MAX_AMOUNT_EUR}`);
  if (value < 0 || !hasAtMostTwoDecimals(value))
    throw invalidField('amount_eur', 'must be ≥ 0 with at most 2 decimals');
  return eurosToCents(value);
}

/** A French or international number, stored in E.164 (`+33612345678`); `field` names it in the 400. */
export function parsePhone(value: string | null | undefined, field = 'delivery_phone'): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const phone = phoneLibrary().parsePhoneNumberFromString(raw, 'FR');
  if (!phone?.isValid())
    throw invalidField(field, 'must be a valid phone number, e.g. "06 12 34 56 78" or "+33 6 12 34 56 78"');
  return phone.number;
}

/** The schema checked the format; the domain part is lower-cased (it is case-insensitive, the local part is not). */
export function normaliseEmail(value: string | null | undefined): string | null {
  const raw = text(value);
  if (raw === null) return null;
  const at = raw.lastIndexOf('@');
  return `${raw.slice(0, at)}@${raw.slice(at + 1).toLowerCase()}`;
}

// Module-level (each check takes the input): closures made per call would each cost a
// defineProperty under tsx, which keeps function names, on the hottest write.
const ORDER_INPUT_CHECKS = {
  customerEmail: (input: OrderInput) => normaliseEmail(input.customer_email)!,
  amountCents: (input: OrderInput) => parseAmount(input.amount_eur),
  pickupAddress: (input: OrderInput) => text(input.pickup_address),
  deliveryAddress: (input: OrderInput) => text(input.delivery_address),
  deliveryRecipient: (input: OrderInput) => text(input.delivery_recipient),
  deliveryPhone: (input: OrderInput) => parsePhone(input.delivery_phone),
  deliveryEmail: (input: OrderInput) => normaliseEmail(input.delivery_email),
  service: (input: OrderInput) => (input.service == null ? DEFAULT_SERVICE : parseService(input.service)),
  unitType: (input: OrderInput) => parseUnitType(input.unit_type ?? DEFAULT_UNIT_TYPE),
  quantity: (input: OrderInput) => parseQuantity(input.quantity ?? 1),
  unitWeightGrams: (input: OrderInput) => parseWeightGrams(input.unit_weight ?? '1kg'),
  reference: (input: OrderInput) => text(input.reference),
  deliveryPoint: (input: OrderInput) => {
    const point = parseBrandPoint(input.delivery_lat, input.delivery_lng) ?? null;
    if (point !== null && text(input.delivery_address) === null)
      throw invalidField('delivery_lat', 'is given only with delivery_address (the point of that address)');
    return point;
  },
};

/** Every field of a new order checked at once: one 400 lists every problem. */
export function validateOrderInput(input: OrderInput): ValidatedOrderInput {
  return validateFields(input, ORDER_INPUT_CHECKS);
}

/**
 * The pickup and delivery addresses of an order, located together so that one 422 names both when
 * both are wrong (`invalid_address` / `out_of_zone`). `pickup` null: none given and the brand has no
 * default, itself a 422 telling the brand what to do. `delivery` null: the order awaits it.
 */
export function locateOrderAddresses(addresses: { delivery?: string | null; pickup?: string | null }): {
  delivery: Place | null;
} {
  const places = locateAddresses(
    {
      delivery_address: addresses.delivery === null ? undefined : addresses.delivery,
      pickup_address: addresses.pickup,
    },
    () => NO_PICKUP_ADDRESS,
  );
  return { delivery: places.delivery_address ?? null };
}

const NO_PICKUP_ADDRESS = new AppError(
  'invalid_address',
  'pickup_address: this brand has no default pickup address, so each order must give one (an Île-de-France ' +
    'address with its postcode). To stop sending it, have a default pickup address set for the brand ' +
    '(operator: `dlv brands create --pickup-address`; soon in the account area).',
  [{ field: 'pickup_address', message: 'is required: the brand has no default pickup address' }],
);
