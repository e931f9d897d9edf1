import type { OrderInput } from '../../domain/orders/order-input.ts';
import { DEFAULT_SERVICE, isServiceCode } from '../../domain/pricing/services.ts';
import type { OrderFilter, ProblemKind } from '../connection.ts';
import { addressLine, amountInEuros, phoneOrNull, recipientName, str, usableEmail } from '../order-fields.ts';
import type { ExternalOrderRef } from '../order-sync.ts';

/**
 * A PrestaShop order as our module pushes it (connectors/prestashop-module; the contract is in
 * test/support/fake-prestashop.ts), and as the Webservice poll rebuilds it from orders, addresses,
 * customers and products. Only the members the bridge reads.
 */
export interface PushedOrder {
  id?: unknown;
  reference?: unknown;
  id_carrier?: unknown;
  /** Our service when the buyer chose one of our carriers, else null. */
  carrier_service?: unknown;
  current_state?: unknown;
  total_paid_tax_incl?: unknown;
  currency?: unknown;
  date_upd?: unknown;
  customer?: { email?: unknown; firstname?: unknown; lastname?: unknown } | null;
  delivery_address?: {
    company?: unknown;
    firstname?: unknown;
    lastname?: unknown;
    address1?: unknown;
    address2?: unknown;
    postcode?: unknown;
    city?: unknown;
    country_iso?: unknown;
    phone?: unknown;
    phone_mobile?: unknown;
  } | null;
  products?: { quantity?: unknown; weight_kg?: unknown }[] | null;
}

export type PushEvent = 'order.paid' | 'order.cancelled';
export const PUSH_EVENTS: readonly PushEvent[] = ['order.paid', 'order.cancelled'];

export type MappedPrestaShopOrder =
  | { kind: 'order'; ref: ExternalOrderRef; input: OrderInput }
  | { kind: 'skip'; ref: ExternalOrderRef; reason: string }
  | { kind: 'problem'; ref: ExternalOrderRef; problem: ProblemKind; message: string };

/** The shop order's id (a positive integer, kept as its decimal text) and reference. */
export function prestashopOrderRef(order: PushedOrder | null | undefined): ExternalOrderRef | null {
  const id = order?.id;
  const text = typeof id === 'number' ? String(id) : typeof id === 'string' ? id.trim() : '';
  if (!/^[1-9]\d{0,18}$/.test(text)) return null;
  return { externalId: text, name: str(order?.reference)?.slice(0, 100) ?? null };
}

/** One parcel (the merchant ships the order together) of the products' weight; none: our default. */
export function prestashopUnits(products: PushedOrder['products']): {
  unit_type: 'parcel';
  quantity: 1;
  unit_weight?: string;
} {
  let grams = 0;
  for (const product of products ?? []) {
    const quantity = Number(product.quantity);
    const kg = Number(str(product.weight_kg) ?? Number.NaN);
    if (Number.isInteger(quantity) && quantity > 0 && Number.isFinite(kg) && kg > 0)
      grams += Math.ceil(kg * 1000) * quantity;
  }
  return grams > 0
    ? { unit_type: 'parcel', quantity: 1, unit_weight: `${grams}g` }
    : { unit_type: 'parcel', quantity: 1 };
}

/**
 * A paid PrestaShop order as our order input, or why it is not one: skipped (not shipped with one of
 * our carriers while the brand takes only those), or a problem the brand must see. Zones, prices and
 * the rest are checked by the order service itself.
 */
export function mapPrestaShopOrder(order: PushedOrder, filter: OrderFilter): MappedPrestaShopOrder | null {
  const ref = prestashopOrderRef(order);
  if (ref === null) return null;
  const service = str(order.carrier_service)?.toLowerCase() ?? null;
  if (service === null && filter === 'ours')
    return { kind: 'skip', ref, reason: 'not shipped with our carriers' };
  if (service !== null && !isServiceCode(service))
    return {
      kind: 'problem',
      ref,
      problem: 'invalid_order',
      message: `Unknown service "${service}" on the order's carrier.`,
    };
  const address = order.delivery_address;
  if (!address)
    return {
      kind: 'problem',
      ref,
      problem: 'invalid_address',
      message: 'The order has no delivery address.',
    };
  const country = str(address.country_iso)?.toUpperCase();
  if (country !== undefined && country !== 'FR')
    return {
      kind: 'problem',
      ref,
      problem: 'out_of_zone',
      message: `The delivery address is outside France (${country}).`,
    };
  const deliveryAddress = addressLine({
    street: address.address1,
    complement: address.address2,
    postcode: address.postcode,
    city: address.city,
  });
  if (deliveryAddress === null)
    return { kind: 'problem', ref, problem: 'invalid_address', message: 'The delivery address is empty.' };
  const email = str(order.customer?.email);
  if (!usableEmail(email))
    return {
      kind: 'problem',
      ref,
      problem: 'invalid_order',
      message: 'The order has no usable customer e-mail.',
    };
  const name = [str(address.firstname), str(address.lastname)].filter(Boolean).join(' ') || null;
  const input: OrderInput = {
    customer_email: email,
    amount_eur: amountInEuros(order.currency, order.total_paid_tax_incl),
    delivery_address: deliveryAddress,
    delivery_recipient: recipientName(name, address.company),
    // The mobile first: the courier texts the recipient on the day.
    delivery_phone: phoneOrNull(address.phone_mobile, address.phone),
    delivery_email: email,
    service: service ?? DEFAULT_SERVICE,
    ...prestashopUnits(order.products),
    reference: ref.name,
  };
  return { kind: 'order', ref, input };
}
