import { randomBytes } from 'node:crypto';
import { gmtTime, wallTime } from './dates.ts';
import {
  nextId,
  type OrderStatus,
  type WooAddress,
  type WooOrder,
  type WooProduct,
  type WooShop,
} from './state.ts';

/**
 * The REST API v3 documents (orders, products), shaped after the examples in WooCommerce's REST API
 * documentation ("Retrieve an order", "Retrieve a product") with a French customer. WooCommerce
 * orders carry no weights: a bridge reads each line's product (GET /products/{id}, `weight` as a
 * string in the store's unit from GET /settings/products/woocommerce_weight_unit).
 */

const PARIS_ADDRESS: WooAddress = {
  first_name: 'Claire',
  last_name: 'Martin',
  company: '',
  address_1: '12 rue Oberkampf',
  address_2: 'Bâtiment B, 3e étage',
  city: 'Paris',
  state: '',
  postcode: '75011',
  country: 'FR',
  phone: '+33 6 12 34 56 78',
};

export interface OrderInput {
  status?: OrderStatus;
  billing?: Partial<WooAddress> & { email?: string };
  shipping?: Partial<WooAddress>;
  /** Lines by product id (the shop's products); default: two of its first product. */
  lineItems?: { productId: number; quantity: number }[];
  shippingLine?: {
    method_id?: string;
    method_title?: string;
    instance_id?: string;
    total?: string;
    meta?: { key: string; value: string }[];
  };
  customerNote?: string;
  customerId?: number;
  paymentMethod?: { id: string; title: string };
  /** When the order was placed (default: now). */
  createdAt?: Date;
}

const PAID = new Set<OrderStatus>(['processing', 'completed', 'refunded']);

export function newOrder(shop: WooShop, input: OrderInput): WooOrder {
  const at = input.createdAt?.getTime() ?? Date.now();
  const status = input.status ?? 'processing';
  const lines = input.lineItems ?? [{ productId: shop.products[0]!.id, quantity: 2 }];
  for (const line of lines) {
    if (!shop.products.some((p) => p.id === line.productId))
      throw new Error(`fake WooCommerce: ${shop.slug} has no product ${line.productId}`);
  }
  const shipping = input.shippingLine ?? {};
  const payment = input.paymentMethod ?? { id: 'stripe', title: 'Carte bancaire' };
  return {
    id: nextId(shop),
    status,
    orderKey: `wc_order_${randomBytes(7).toString('hex').slice(0, 13)}`,
    customerId: input.customerId ?? 0,
    customerNote: input.customerNote ?? '',
    billing: { ...PARIS_ADDRESS, email: 'claire.martin@example.fr', ...input.billing },
    shipping: { ...PARIS_ADDRESS, ...input.shipping },
    paymentMethod: payment.id,
    paymentMethodTitle: payment.title,
    transactionId: PAID.has(status) ? `pi_${randomBytes(12).toString('hex')}` : '',
    lineItems: lines.map((line) => ({
      id: nextId(shop),
      product_id: line.productId,
      variation_id: 0,
      quantity: line.quantity,
    })),
    shippingLines: [
      {
        id: nextId(shop),
        method_title: shipping.method_title ?? 'Forfait',
        method_id: shipping.method_id ?? 'flat_rate',
        instance_id: shipping.instance_id ?? '3',
        total: shipping.total ?? '6.90',
        ...(shipping.meta ? { meta: shipping.meta } : {}),
      },
    ],
    createdAt: at,
    modifiedAt: at,
    paidAt: PAID.has(status) ? at : null,
    completedAt: status === 'completed' ? at : null,
  };
}

const money = (n: number) => n.toFixed(2);

function dates(shop: WooShop, name: string, ms: number | null): Record<string, string | null> {
  return {
    [name]: ms === null ? null : wallTime(ms, shop.timeZone),
    [`${name}_gmt`]: ms === null ? null : gmtTime(ms),
  };
}

const link = (href: string) => [{ href }];

/** GET /wp-json/wc/v3/orders/{id}, as an object (encode with phpJsonEncode). */
export function orderDocument(shop: WooShop, order: WooOrder): Record<string, unknown> {
  const api = `${shop.url}/wp-json/wc/v3`;
  const lineItems = order.lineItems.map((line) => {
    const product = shop.products.find((p) => p.id === line.product_id)!;
    const price = Number(product.price);
    const total = money(price * line.quantity);
    return {
      id: line.id,
      name: product.name,
      product_id: line.product_id,
      variation_id: line.variation_id,
      quantity: line.quantity,
      tax_class: '',
      subtotal: total,
      subtotal_tax: '0.00',
      total,
      total_tax: '0.00',
      taxes: [],
      meta_data: [],
      sku: product.sku,
      price,
      image: { id: '', src: '' },
      parent_name: null,
    };
  });
  const itemsTotal = lineItems.reduce((sum, line) => sum + Number(line.total), 0);
  const shippingTotal = order.shippingLines.reduce((sum, line) => sum + Number(line.total), 0);
  return {
    id: order.id,
    parent_id: 0,
    status: order.status,
    currency: shop.currency,
    version: '9.8.5',
    prices_include_tax: false,
    ...dates(shop, 'date_created', order.createdAt),
    ...dates(shop, 'date_modified', order.modifiedAt),
    discount_total: '0.00',
    discount_tax: '0.00',
    shipping_total: money(shippingTotal),
    shipping_tax: '0.00',
    cart_tax: '0.00',
    total: money(itemsTotal + shippingTotal),
    total_tax: '0.00',
    customer_id: order.customerId,
    order_key: order.orderKey,
    billing: order.billing,
    shipping: { ...order.shipping, email: undefined },
    payment_method: order.paymentMethod,
    payment_method_title: order.paymentMethodTitle,
    transaction_id: order.transactionId,
    customer_ip_address: '203.0.113.24',
    customer_user_agent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15',
    created_via: 'checkout',
    customer_note: order.customerNote,
    ...dates(shop, 'date_completed', order.completedAt),
    ...dates(shop, 'date_paid', order.paidAt),
    cart_hash: '',
    number: String(order.id),
    meta_data: [],
    line_items: lineItems,
    tax_lines: [],
    shipping_lines: order.shippingLines.map(({ meta, ...line }) => ({
      ...line,
      total_tax: '0.00',
      taxes: [],
      // WC_Meta_Data as the API writes it: an id per entry, the key, the value.
      meta_data: (meta ?? []).map((m, i) => ({ id: line.id * 10 + i + 1, key: m.key, value: m.value })),
    })),
    fee_lines: [],
    coupon_lines: [],
    refunds: [],
    payment_url: `${shop.url}/commande/order-pay/${order.id}/?pay_for_order=true&key=${order.orderKey}`,
    is_editable: ['pending', 'on-hold', 'checkout-draft'].includes(order.status),
    needs_payment: ['pending', 'failed'].includes(order.status),
    needs_processing: true,
    currency_symbol: '€',
    _links: {
      self: link(`${api}/orders/${order.id}`),
      collection: link(`${api}/orders`),
      ...(order.customerId ? { customer: link(`${api}/customers/${order.customerId}`) } : {}),
    },
  };
}

/** GET /wp-json/wc/v3/products/{id} (the fields a bridge reads, in the documented shape). */
export function productDocument(shop: WooShop, product: WooProduct): Record<string, unknown> {
  const api = `${shop.url}/wp-json/wc/v3`;
  const slug = product.name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return {
    id: product.id,
    name: product.name,
    slug,
    permalink: `${shop.url}/produit/${slug}/`,
    type: 'simple',
    status: 'publish',
    sku: product.sku,
    price: product.price,
    regular_price: product.price,
    sale_price: '',
    virtual: false,
    downloadable: false,
    weight: product.weight,
    dimensions: product.dimensions,
    shipping_required: true,
    shipping_taxable: true,
    shipping_class: '',
    shipping_class_id: 0,
    meta_data: [],
    _links: { self: link(`${api}/products/${product.id}`), collection: link(`${api}/products`) },
  };
}

/** The two products every fake shop starts with (weights in the shop's unit). */
export function starterProducts(shop: WooShop): WooProduct[] {
  const kg = { kg: 1, g: 1000, lbs: 2.20462, oz: 35.274 }[shop.weightUnit];
  const weight = (w: number) => String(Math.round(w * kg * 1000) / 1000);
  return [
    { name: 'Coffret thé vert', sku: 'THE-VERT-01', price: '24.90', weightKg: 0.45 },
    { name: 'Bougie parfumée « Figuier »', sku: 'BOUGIE-FIG', price: '12.50', weightKg: 0.2 },
  ].map((p) => ({
    id: nextId(shop),
    name: p.name,
    sku: p.sku,
    price: p.price,
    weight: weight(p.weightKg),
    dimensions: { length: '20', width: '12', height: '8' },
  }));
}
