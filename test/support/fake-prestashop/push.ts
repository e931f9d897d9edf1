import { randomUUID } from 'node:crypto';
import { type PostResult, postJson } from '../fake-shopify/delivery.ts';
import { bodyHmac } from '../fake-shopify/signing.ts';
import { phpJsonEncode } from '../php-json.ts';
import { configuration, type PsShop } from './state.ts';

/** The push the Delivery Orders PrestaShop module sends: see the contract in fake-prestashop.ts. */

export type PushEvent = 'order.paid' | 'order.cancelled';

const SERVICES = ['express', 'standard', 'economy'] as const;

/** Our service for a carrier: its id_reference is one the module keeps as DLV_CARRIER_REF_<SERVICE>. */
function carrierService(shop: PsShop, carrierId: string): string | null {
  const carrier = shop.tables.carriers!.find((c) => String(c.id) === carrierId);
  if (!carrier) return null;
  return (
    SERVICES.find(
      (s) => configuration(shop, `DLV_CARRIER_REF_${s.toUpperCase()}`) === String(carrier.id_reference),
    ) ?? null
  );
}

/** A product's weight in PS_WEIGHT_UNIT as kilograms, 3 decimals (the module converts). */
function weightKg(shop: PsShop, weight: string | number): string {
  const unit = configuration(shop, 'PS_WEIGHT_UNIT') ?? 'kg';
  const grams = unit === 'g' ? 1 : unit === 'lb' ? 453.59237 : 1000;
  return ((Number(weight) * grams) / 1000).toFixed(3);
}

export function pushPayload(shop: PsShop, orderId: number, event: PushEvent): Record<string, unknown> {
  const t = shop.tables;
  const order = t.orders!.find((o) => o.id === orderId);
  if (!order) throw new Error(`fake PrestaShop: ${shop.slug} has no order ${orderId}`);
  const customer = t.customers!.find((c) => String(c.id) === order.id_customer)!;
  const address = t.addresses!.find((a) => String(a.id) === order.id_address_delivery)!;
  const country = t.countries!.find((c) => String(c.id) === address.id_country)!;
  const currency = t.currencies!.find((c) => String(c.id) === order.id_currency);
  const products = (shop.orderRows.get(order.id) ?? []).map((row) => {
    const product = t.products!.find((p) => String(p.id) === row.product_id);
    return {
      id_product: Number(row.product_id),
      name: row.product_name,
      quantity: Number(row.product_quantity),
      weight_kg: weightKg(shop, product?.weight ?? 0),
    };
  });
  return {
    event,
    shop_url: shop.url,
    order: {
      id: order.id,
      reference: order.reference,
      id_carrier: Number(order.id_carrier),
      carrier_service: carrierService(shop, String(order.id_carrier)),
      current_state: Number(order.current_state),
      total_paid_tax_incl: Number(order.total_paid_tax_incl).toFixed(2),
      currency: currency?.iso_code ?? 'EUR',
      date_upd: order.date_upd,
      customer: { email: customer.email, firstname: customer.firstname, lastname: customer.lastname },
      delivery_address: {
        company: address.company,
        firstname: address.firstname,
        lastname: address.lastname,
        address1: address.address1,
        address2: address.address2,
        postcode: address.postcode,
        city: address.city,
        country_iso: country.iso_code,
        phone: address.phone,
        phone_mobile: address.phone_mobile,
      },
      products,
    },
  };
}

let lastTimestamp = 0;
/**
 * Now, in Unix seconds, but never a second already used: the tests push the same order's bytes several
 * times a second (the module's retries come a minute apart), and the same bytes signed in the same
 * second are one push replayed, refused. Replay tests pass their own `timestamp`.
 */
function nextTimestamp(): number {
  lastTimestamp = Math.max(Math.floor(Date.now() / 1000), lastTimestamp + 1);
  return lastTimestamp;
}

/**
 * POSTs a push as the module does: json_encode'd body, signed with the time it is sent, one delivery
 * id per push (kept on a retry, signed anew).
 */
export async function sendPush(
  url: string,
  credentials: { connectionId: string; secret: string },
  payload: Record<string, unknown>,
  options: {
    deliveryId?: string;
    timeoutMs?: number;
    signature?: string;
    /** Unix seconds (default: now), signed with the body. */
    timestamp?: number;
  } = {},
): Promise<PostResult & { deliveryId: string; sentBody: string; headers: Record<string, string> }> {
  const body = phpJsonEncode(payload);
  const deliveryId = options.deliveryId ?? randomUUID();
  const timestamp = String(options.timestamp ?? nextTimestamp());
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'PrestaShop/8.1.7 dlvshipping/1.0.0',
    'X-Dlv-Connection': credentials.connectionId,
    'X-Dlv-Delivery-Id': deliveryId,
    'X-Dlv-Timestamp': timestamp,
    'X-Dlv-Signature': options.signature ?? bodyHmac(credentials.secret, `${timestamp}.${body}`),
  };
  const result = await postJson(url, body, headers, options.timeoutMs ?? 5_000);
  // `body` is the bridge's answer; what was sent is `sentBody`.
  return { ...result, deliveryId, sentBody: body, headers };
}
