import type { OrderInput } from '../../domain/orders/order-input.ts';
import { parseBrandPoint } from '../../domain/places/coordinates.ts';
import { roundCoordinate } from '../../domain/places/location.ts';
import { DEFAULT_SERVICE, isServiceCode, type ServiceCode } from '../../domain/pricing/services.ts';
import type { OrderFilter, ProblemDetails, ProblemKind } from '../connection.ts';
import {
  addressLine,
  amountInEuros,
  parcelOf,
  phoneOrNull,
  recipientName,
  str,
  usableEmail,
} from '../order-fields.ts';
import { toGid } from './shopify-json.ts';

/** The members of Shopify's order payload (orders/paid, orders/cancelled) the connector reads. */
interface ShopifyAddress {
  name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  address1?: string | null;
  address2?: string | null;
  zip?: string | null;
  city?: string | null;
  country_code?: string | null;
  phone?: string | null;
  /** Shopify's own geocoding of the address (WGS 84), null when it has none. */
  latitude?: number | null;
  longitude?: number | null;
}

export interface ShopifyItem {
  grams?: number | null;
  quantity?: number | null;
  requires_shipping?: boolean | null;
}

/**
 * A shipping line as Shopify reports it. A rate the merchant set in the shop has `source` "shopify"
 * and no `carrier_identifier`, its `code` and `title` being whatever the merchant named it; a rate a
 * carrier service computed has that service's name as `source`, the `service_code` it answered as
 * `code`, and a `carrier_identifier`.
 */
interface ShopifyShippingLine {
  code?: string | null;
  title?: string | null;
  source?: string | null;
  carrier_identifier?: string | null;
}

interface ShopifyOrderPayload {
  id?: unknown;
  admin_graphql_api_id?: unknown;
  name?: string | null;
  email?: string | null;
  contact_email?: string | null;
  phone?: string | null;
  currency?: string | null;
  total_price?: string | null;
  customer?: { id?: unknown; admin_graphql_api_id?: unknown; email?: string | null } | null;
  shipping_address?: ShopifyAddress | null;
  shipping_lines?: ShopifyShippingLine[] | null;
  line_items?: ShopifyItem[] | null;
}

/** Which shop order a payload is about: its gid (exact), and what the merchant calls it. */
export interface ShopOrderRef {
  gid: string;
  name: string | null;
  customerGid: string | null;
}

export type MappedOrder =
  | { kind: 'order'; ref: ShopOrderRef; input: OrderInput }
  | { kind: 'skip'; ref: ShopOrderRef; reason: string }
  | { kind: 'problem'; ref: ShopOrderRef; problem: ProblemKind; message: string; details: ProblemDetails };

/** The order's gid: `admin_graphql_api_id`, else built from `id` read exactly (parseShopifyJson). */
export function shopOrderRef(payload: unknown): ShopOrderRef | null {
  const p = (payload ?? {}) as ShopifyOrderPayload;
  const gid = str(p.admin_graphql_api_id) ?? toGid('Order', p.id);
  if (gid === null) return null;
  const customer = p.customer ?? null;
  return {
    gid,
    name: str(p.name),
    customerGid: customer ? (str(customer.admin_graphql_api_id) ?? toGid('Customer', customer.id)) : null,
  };
}

/**
 * What we deliver for a cart or an order: one parcel (the merchant ships the order together)
 * weighing the items that need shipping. Shopify gives grams per unit; items without a weight count
 * for nothing, and a cart with no weight at all is priced at the API's default unit weight. The
 * carrier-service rates and the created order use this one function, so checkout and order agree.
 */
export function shopifyUnits(items: readonly ShopifyItem[]): {
  unit_type: 'parcel';
  quantity: number;
  unit_weight?: string;
} {
  let grams = 0;
  for (const item of items) {
    if (item.requires_shipping === false) continue;
    const quantity = Number.isInteger(item.quantity) && item.quantity! > 0 ? item.quantity! : 1;
    if (typeof item.grams === 'number' && item.grams > 0) grams += Math.ceil(item.grams) * quantity;
  }
  return parcelOf(grams);
}

function addressLineOf(a: ShopifyAddress): string | null {
  return addressLine({ street: a.address1, complement: a.address2, postcode: a.zip, city: a.city });
}

/**
 * The shipping address's point as Shopify geocoded it, as the order's `delivery_lat`/`delivery_lng`
 * (6 decimals): only a usable one (both numbers, in Île-de-France). A point the API would refuse is
 * left out rather than hold the order: the address is then placed as any other.
 */
function pointOf(a: ShopifyAddress): Pick<OrderInput, 'delivery_lat' | 'delivery_lng'> {
  if (typeof a.latitude !== 'number' || typeof a.longitude !== 'number') return {};
  const point = { delivery_lat: roundCoordinate(a.latitude), delivery_lng: roundCoordinate(a.longitude) };
  try {
    parseBrandPoint(point.delivery_lat, point.delivery_lng);
    return point;
  } catch {
    return {};
  }
}

function recipient(a: ShopifyAddress): string | null {
  const name = str(a.name) ?? ([str(a.first_name), str(a.last_name)].filter(Boolean).join(' ') || null);
  return recipientName(name, a.company);
}

/**
 * Our service, when the buyer chose a rate of our carrier service (registered as `carrierName`) at
 * checkout: a carrier-calculated line from that service, with a code our rates answered. A shop's
 * own rate or another carrier's named "Standard" or "express" is not ours, whatever its name.
 */
function chosenService(
  p: { shipping_lines?: ShopifyOrderPayload['shipping_lines'] },
  carrierName: string,
): ServiceCode | null {
  const ours = carrierName.trim().toLowerCase();
  for (const line of p.shipping_lines ?? []) {
    if (str(line.carrier_identifier) === null) continue;
    if (str(line.source)?.toLowerCase() !== ours) continue;
    const code = str(line.code)?.toLowerCase();
    if (isServiceCode(code)) return code;
  }
  return null;
}

/**
 * A paid Shopify order as our order input, or why it is not one: skipped (not shipped with our
 * carrier service, and the brand takes only those), or a problem the brand must see (no usable address, outside France).
 * Prices, zones and the rest are checked by the order service itself.
 */
export function mapPaidOrder(payload: unknown, filter: OrderFilter, carrierName: string): MappedOrder | null {
  const ref = shopOrderRef(payload);
  if (ref === null) return null;
  const p = payload as ShopifyOrderPayload;
  const service = chosenService(p, carrierName);
  if (service === null && filter === 'ours')
    return { kind: 'skip', ref, reason: 'not shipped with our services' };
  const address = p.shipping_address;
  if (!address) {
    return filter === 'ours'
      ? {
          kind: 'problem',
          ref,
          problem: 'invalid_address',
          message: 'The order has no shipping address.',
          details: { code: 'no_shipping_address' },
        }
      : { kind: 'skip', ref, reason: 'no shipping address' };
  }
  const country = str(address.country_code)?.toUpperCase();
  if (country !== undefined && country !== 'FR') {
    return {
      kind: 'problem',
      ref,
      problem: 'out_of_zone',
      message: `The shipping address is outside France (${country}).`,
      details: { code: 'outside_france', country },
    };
  }
  const deliveryAddress = addressLineOf(address);
  if (deliveryAddress === null)
    return {
      kind: 'problem',
      ref,
      problem: 'invalid_address',
      message: 'The shipping address is empty.',
      details: { code: 'empty_address' },
    };
  const email = str(p.email) ?? str(p.contact_email) ?? str(p.customer?.email);
  if (!usableEmail(email))
    return {
      kind: 'problem',
      ref,
      problem: 'invalid_order',
      message: 'The order has no usable customer e-mail.',
      details: { code: 'no_email' },
    };
  const input: OrderInput = {
    customer_email: email,
    amount_eur: amountInEuros(p.currency, p.total_price),
    delivery_address: deliveryAddress,
    delivery_recipient: recipient(address),
    delivery_phone: phoneOrNull(address.phone, p.phone),
    delivery_email: email,
    service: service ?? DEFAULT_SERVICE,
    ...shopifyUnits(p.line_items ?? []),
    reference: ref.name?.slice(0, 100) ?? null,
    ...pointOf(address),
  };
  return { kind: 'order', ref, input };
}
