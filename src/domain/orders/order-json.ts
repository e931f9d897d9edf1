import { centsToEuros, VAT_RATE } from '../pricing/money.ts';
import type { Order, OrderEvent } from './order.ts';

const euros = (cents: number | null) => (cents === null ? null : centsToEuros(cents));

/**
 * The public shape of an order (SPEC §5), shared by the API and the webhooks so both always say
 * the same thing. Every field is present; a missing value is `null`.
 */
export function orderJson(order: Order) {
  return {
    tracking_ref: order.trackingRef,
    status: order.status,
    reference: order.reference,
    customer_email: order.customerEmail,
    amount_eur: euros(order.amountCents),
    pickup_address: order.pickupAddress,
    delivery_address: order.deliveryAddress,
    delivery_postcode: order.deliveryPostcode,
    delivery_city: order.deliveryCity,
    delivery_recipient: order.deliveryRecipient,
    delivery_phone: order.deliveryPhone,
    delivery_email: order.deliveryEmail,
    service: order.service,
    unit_type: order.unitType,
    quantity: order.quantity,
    unit_weight_grams: order.unitWeightGrams,
    price_eur: euros(order.priceCents),
    price_excl_tax_eur: euros(order.priceExclTaxCents),
    vat_rate: order.priceCents === null ? null : VAT_RATE,
    promised_date: order.promisedDate,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
  };
}

/** The order with its status history, oldest first: the detail view. */
export function orderDetailJson(order: Order & { events: readonly OrderEvent[] }) {
  return {
    ...orderJson(order),
    events: order.events.map((e) => ({ status: e.status, at: e.at.toISOString(), note: e.note })),
  };
}
