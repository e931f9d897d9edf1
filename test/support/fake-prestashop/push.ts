import { randomUUID } from 'node:crypto';
import { type PostResult, postJson } from '../fake-shopify/delivery.ts';
import { bodyHmac } from '../fake-shopify/signing.ts';
import { phpJsonEncode } from '../php-json.ts';
import { type PsShop, psDate } from './state.ts';

/** The push the Delivery Orders PrestaShop module sends: see the contract in fake-prestashop.ts. */

export type PushEvent = 'order.validated' | 'order.status_changed';

export function pushPayload(shop: PsShop, orderId: number, event: PushEvent): Record<string, unknown> {
  const t = shop.tables;
  const order = t.orders!.find((o) => o.id === orderId);
  if (!order) throw new Error(`fake PrestaShop: ${shop.slug} has no order ${orderId}`);
  const state = t.order_states!.find((s) => String(s.id) === order.current_state)!;
  const carrier = t.carriers!.find((c) => String(c.id) === order.id_carrier)!;
  const orderCarrier = t.order_carriers!.find((oc) => oc.id_order === String(order.id))!;
  const customer = t.customers!.find((c) => String(c.id) === order.id_customer)!;
  const address = t.addresses!.find((a) => String(a.id) === order.id_address_delivery)!;
  const country = t.countries!.find((c) => String(c.id) === address.id_country)!;
  const lines = (shop.orderRows.get(order.id) ?? []).map((row) => {
    const product = t.products!.find((p) => String(p.id) === row.product_id);
    return {
      product_id: Number(row.product_id),
      product_attribute_id: Number(row.product_attribute_id),
      reference: row.product_reference,
      name: row.product_name,
      quantity: Number(row.product_quantity),
      unit_weight: product ? Number(product.weight).toFixed(3) : '0.000',
    };
  });
  return {
    event,
    shop_url: `${shop.url}/`,
    module_version: '1.0.0',
    sent_at: psDate(shop),
    order: {
      id: order.id,
      reference: order.reference,
      id_shop: Number(order.id_shop),
      current_state: {
        id: state.id,
        name: state.name,
        paid: state.paid === '1',
        shipped: state.shipped === '1',
        delivery: state.delivery === '1',
      },
      date_add: order.date_add,
      date_upd: order.date_upd,
      timezone: shop.timeZone,
      currency: 'EUR',
      total_paid_tax_incl: Number(order.total_paid_tax_incl).toFixed(2),
      payment: order.payment,
      carrier: {
        id_carrier: carrier.id,
        id_reference: Number(carrier.id_reference),
        name: carrier.name,
        id_order_carrier: orderCarrier.id,
      },
      customer: {
        id: customer.id,
        firstname: customer.firstname,
        lastname: customer.lastname,
        email: customer.email,
      },
      delivery_address: {
        id: address.id,
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
        other: address.other,
      },
      weight_unit: 'kg',
      lines,
    },
  };
}

/** POSTs a push as the module does: json_encode'd body, signed, one delivery id per push. */
export async function sendPush(
  url: string,
  secret: string,
  payload: Record<string, unknown>,
  options: { deliveryId?: string; timeoutMs?: number } = {},
): Promise<PostResult & { deliveryId: string; body: string; headers: Record<string, string> }> {
  const body = phpJsonEncode(payload);
  const deliveryId = options.deliveryId ?? randomUUID();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'PrestaShop/8.1.7 deliveryorders/1.0.0',
    'X-Dlv-Event': String(payload.event),
    'X-Dlv-Shop': String(payload.shop_url),
    'X-Dlv-Delivery-Id': deliveryId,
    'X-Dlv-Signature': bodyHmac(secret, body),
  };
  const result = await postJson(url, body, headers, options.timeoutMs ?? 5_000);
  return { ...result, deliveryId, body, headers };
}
