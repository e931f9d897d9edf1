import type { OrderInput } from '../../domain/orders/order-input.ts';
import { DEFAULT_SERVICE, isServiceCode, type ServiceCode } from '../../domain/pricing/services.ts';
import type { OrderFilter, ProblemKind } from '../connection.ts';
import { firstUsableEmail, parcelOf, phoneOrNull, str } from '../order-fields.ts';

/** Our shipping method's id in the shop (the plugin's WC_Shipping_Method, rates `dlv:<service>`). */
const OUR_METHOD_ID = 'dlv';

interface WooAddress {
  first_name?: string | null;
  last_name?: string | null;
  company?: string | null;
  address_1?: string | null;
  address_2?: string | null;
  city?: string | null;
  postcode?: string | null;
  country?: string | null;
  phone?: string | null;
  email?: string | null;
}

interface WooMeta {
  key?: unknown;
  value?: unknown;
}

export interface WooLineItem {
  product_id?: number | null;
  variation_id?: number | null;
  quantity?: number | null;
}

/** The members of a REST v3 order (GET /orders/{id}, and every order webhook's body) we read. */
export interface WooOrder {
  id?: unknown;
  number?: string | null;
  status?: string | null;
  currency?: string | null;
  total?: string | null;
  date_modified_gmt?: string | null;
  billing?: WooAddress | null;
  shipping?: WooAddress | null;
  shipping_lines?:
    | { method_id?: string | null; instance_id?: string | null; meta_data?: WooMeta[] | null }[]
    | null;
  line_items?: WooLineItem[] | null;
}

export interface WooOrderRef {
  /** The order's id as a decimal string (our link's external id). */
  id: string;
  /** The order number as the shop shows it (`number`, which plugins may change), without a "#". */
  number: string;
  /** What the merchant sees in the shop's order list (`#2001`), for links and problems. */
  name: string;
}

export type MappedWooOrder =
  | { kind: 'order'; ref: WooOrderRef; input: Omit<OrderInput, 'unit_type' | 'quantity' | 'unit_weight'> }
  | { kind: 'skip'; ref: WooOrderRef; reason: string }
  | { kind: 'problem'; ref: WooOrderRef; problem: ProblemKind; message: string };

export function wooOrderRef(order: unknown): WooOrderRef | null {
  const o = (order ?? {}) as WooOrder;
  const id = typeof o.id === 'number' && Number.isSafeInteger(o.id) && o.id > 0 ? String(o.id) : null;
  if (id === null) return null;
  const number = str(o.number)?.replace(/^#+/, '') || id;
  return { id, number, name: `#${number}` };
}

/** Our service, when the buyer chose our shipping method at checkout (meta `dlv_service`). */
function ourShippingLine(order: WooOrder): { service: ServiceCode } | null {
  for (const line of order.shipping_lines ?? []) {
    if (line.method_id !== OUR_METHOD_ID) continue;
    const meta = (line.meta_data ?? []).find((m) => m.key === 'dlv_service');
    const service = typeof meta?.value === 'string' ? meta.value.toLowerCase() : null;
    return { service: isServiceCode(service) ? service : DEFAULT_SERVICE };
  }
  return null;
}

const addressOf = (a: WooAddress | null | undefined): WooAddress | null =>
  a && (str(a.address_1) || str(a.postcode) || str(a.city)) ? a : null;

/**
 * A WooCommerce order to deliver, as our order input without its load (the weights come from the
 * products: see order-sync), or why not: skipped (not shipped with us while the brand takes only
 * those, no shipping address on an "any order" link), or a problem the brand must see.
 */
export function mapWooOrder(order: unknown, filter: OrderFilter): MappedWooOrder | null {
  const ref = wooOrderRef(order);
  if (ref === null) return null;
  const o = order as WooOrder;
  const ours = ourShippingLine(o);
  if (ours === null && filter === 'ours') return { kind: 'skip', ref, reason: 'not shipped with our method' };
  // A shop that ships no physical goods to this order has no shipping address (WooCommerce leaves it empty).
  const address = addressOf(o.shipping);
  if (address === null) {
    return ours
      ? { kind: 'problem', ref, problem: 'invalid_address', message: 'The order has no shipping address.' }
      : { kind: 'skip', ref, reason: 'no shipping address' };
  }
  const country = str(address.country)?.toUpperCase();
  if (country !== undefined && country !== 'FR')
    return {
      kind: 'problem',
      ref,
      problem: 'out_of_zone',
      message: `The shipping address is outside France (${country}).`,
    };
  const street = [str(address.address_1), str(address.address_2)].filter(Boolean).join(', ');
  const town = [str(address.postcode), str(address.city)].filter(Boolean).join(' ');
  const line = [street, town].filter(Boolean).join(' ').slice(0, 500);
  const email = firstUsableEmail(o.billing?.email);
  if (email === null)
    return {
      kind: 'problem',
      ref,
      problem: 'invalid_order',
      message: 'The order has no usable customer e-mail.',
    };
  const name = [str(address.first_name), str(address.last_name)].filter(Boolean).join(' ');
  const total = str(o.total);
  return {
    kind: 'order',
    ref,
    input: {
      customer_email: email,
      amount_eur:
        o.currency === 'EUR' && total !== null && /^\d+(\.\d{1,2})?$/.test(total) ? Number(total) : null,
      delivery_address: line,
      delivery_recipient: [name, str(address.company)].filter(Boolean).join(', ').slice(0, 200) || null,
      delivery_phone: phoneOrNull(address.phone, o.billing?.phone),
      delivery_email: email,
      service: ours?.service ?? DEFAULT_SERVICE,
      reference: ref.number.slice(0, 100),
    },
  };
}

/**
 * The order's load from its lines and each product's weight (a string in the store's unit):
 * one parcel of the total; lines whose product has no weight count for nothing.
 */
export function wooLoad(
  lines: readonly WooLineItem[],
  weightOf: (line: WooLineItem) => string | null,
  gramsPerUnit: number,
) {
  let grams = 0;
  for (const line of lines) {
    const quantity = Number.isInteger(line.quantity) && line.quantity! > 0 ? line.quantity! : 1;
    const weight = Number(weightOf(line) ?? '');
    if (Number.isFinite(weight) && weight > 0) grams += weight * gramsPerUnit * quantity;
  }
  return parcelOf(grams);
}
