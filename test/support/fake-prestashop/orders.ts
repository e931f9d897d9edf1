import { randomBytes } from 'node:crypto';
import { insert, type PsShop, psDate, type Row } from './state.ts';

/**
 * Orders as a PrestaShop 8 checkout leaves them: a customer, a delivery address in Paris, the order
 * (state 2 "Paiement accepté" by default), its order_rows, one order_carrier row (no tracking number
 * yet) and its first order_history entry.
 */

export interface PsOrderInput {
  address?: Partial<
    Record<
      | 'firstname'
      | 'lastname'
      | 'company'
      | 'address1'
      | 'address2'
      | 'postcode'
      | 'city'
      | 'phone'
      | 'phone_mobile'
      | 'other',
      string
    >
  >;
  /** Lines by product id (default: two of the shop's first product). */
  lines?: { productId: number; quantity: number }[];
  state?: number;
  /** The carrier the buyer chose: one of our services (default standard) or the shop's own. */
  carrier?: 'express' | 'standard' | 'economy' | 'other';
  /** Or a carrier by its id (one added by addCarrier or editCarrier); wins over `carrier`. */
  carrierId?: number;
  /** When the order was placed (default: now). */
  at?: Date;
}

const money = (n: number) => n.toFixed(6);

export function createOrder(shop: PsShop, input: PsOrderInput = {}): Row {
  const at = psDate(shop, input.at?.getTime());
  const customer = insert(shop, 'customers', {
    id_default_group: 3,
    id_lang: 1,
    secure_key: randomBytes(16).toString('hex'),
    deleted: 0,
    lastname: input.address?.lastname ?? 'Martin',
    firstname: input.address?.firstname ?? 'Claire',
    email: 'claire.martin@example.fr',
    id_gender: 2,
    newsletter: 0,
    optin: 0,
    active: 1,
    is_guest: 0,
    id_shop: 1,
    id_shop_group: 1,
    date_add: at,
    date_upd: at,
  });
  const address = insert(shop, 'addresses', {
    id_customer: customer.id,
    id_manufacturer: 0,
    id_supplier: 0,
    id_warehouse: 0,
    id_country: 8,
    id_state: 0,
    alias: 'Mon adresse',
    company: '',
    lastname: 'Martin',
    firstname: 'Claire',
    address1: '12 rue Oberkampf',
    address2: 'Bâtiment B, 3e étage',
    postcode: '75011',
    city: 'Paris',
    other: 'Digicode 4821B',
    phone: '',
    phone_mobile: '06 12 34 56 78',
    deleted: 0,
    date_add: at,
    date_upd: at,
    ...input.address,
  });
  const reference = { express: 7, standard: 8, economy: 9, other: 12 }[input.carrier ?? 'standard'];
  const carrier =
    input.carrierId === undefined
      ? shop.tables.carriers!.find((c) => c.id_reference === String(reference) && c.deleted !== '1')!
      : shop.tables.carriers!.find((c) => c.id === input.carrierId)!;
  if (!carrier) throw new Error(`fake PrestaShop: ${shop.slug} has no carrier ${input.carrierId}`);
  const lines = input.lines ?? [{ productId: shop.tables.products![0]!.id, quantity: 2 }];
  const products = lines.map((line) => {
    const product = shop.tables.products!.find((p) => p.id === line.productId);
    if (!product) throw new Error(`fake PrestaShop: ${shop.slug} has no product ${line.productId}`);
    return { product, quantity: line.quantity };
  });
  const itemsTotal = products.reduce((sum, p) => sum + Number(p.product.price) * p.quantity, 0);
  const shipping = 6.9;
  const total = money(itemsTotal + shipping);
  const state = input.state ?? 2;
  const order = insert(shop, 'orders', {
    id_address_delivery: address.id,
    id_address_invoice: address.id,
    id_cart: shop.tables.orders!.length + 40,
    id_currency: 1,
    id_lang: 1,
    id_customer: customer.id,
    id_carrier: carrier.id,
    current_state: state,
    module: 'ps_checkout',
    invoice_number: 0,
    invoice_date: '0000-00-00 00:00:00',
    delivery_number: 0,
    delivery_date: '0000-00-00 00:00:00',
    valid: [2, 3, 4, 5, 11].includes(state) ? 1 : 0,
    date_add: at,
    date_upd: at,
    shipping_number: '',
    note: '',
    id_shop_group: 1,
    id_shop: 1,
    secure_key: customer.secure_key!,
    payment: 'Carte bancaire',
    recyclable: 0,
    gift: 0,
    gift_message: '',
    mobile_theme: 0,
    total_discounts: money(0),
    total_discounts_tax_incl: money(0),
    total_discounts_tax_excl: money(0),
    total_paid: total,
    total_paid_tax_incl: total,
    total_paid_tax_excl: total,
    total_paid_real: total,
    total_products: money(itemsTotal),
    total_products_wt: money(itemsTotal),
    total_shipping: money(shipping),
    total_shipping_tax_incl: money(shipping),
    total_shipping_tax_excl: money(shipping),
    carrier_tax_rate: '0.000',
    total_wrapping: money(0),
    total_wrapping_tax_incl: money(0),
    total_wrapping_tax_excl: money(0),
    round_mode: 2,
    round_type: 2,
    conversion_rate: '1.000000',
    reference: randomBytes(9).toString('hex').replace(/[0-9]/g, '').toUpperCase().padEnd(9, 'X').slice(0, 9),
  });
  shop.orderRows.set(
    order.id,
    products.map(({ product, quantity }, i) => ({
      id: String(order.id * 10 + i),
      product_id: String(product.id),
      product_attribute_id: '0',
      product_quantity: String(quantity),
      product_name: String(product.name),
      product_reference: String(product.reference),
      product_ean13: '',
      product_isbn: '',
      product_upc: '',
      product_price: String(product.price),
      id_customization: '0',
      unit_price_tax_incl: String(product.price),
      unit_price_tax_excl: String(product.price),
    })),
  );
  const weight = products.reduce((sum, p) => sum + Number(p.product.weight) * p.quantity, 0);
  insert(shop, 'order_carriers', {
    id_order: order.id,
    id_carrier: carrier.id,
    id_order_invoice: 0,
    weight: weight.toFixed(6),
    shipping_cost_tax_excl: money(shipping),
    shipping_cost_tax_incl: money(shipping),
    tracking_number: '',
    date_add: at,
  });
  insert(shop, 'order_histories', {
    id_employee: 0,
    id_order_state: state,
    id_order: order.id,
    date_add: at,
  });
  return order;
}

/** OrderHistory::changeIdOrderState + add: the order's current_state and date_upd move. */
export function changeState(shop: PsShop, orderId: number, stateId: number, employee = 0): Row {
  const order = shop.tables.orders!.find((o) => o.id === orderId)!;
  const now = psDate(shop);
  order.current_state = String(stateId);
  order.date_upd = now;
  if ([2, 3, 4, 5, 11].includes(stateId)) order.valid = '1';
  return insert(shop, 'order_histories', {
    id_employee: employee,
    id_order_state: stateId,
    id_order: orderId,
    date_add: now,
  });
}

/** A new carrier id: ids are never reused, and a reference is the id of its carrier's first version. */
const nextCarrierId = (shop: PsShop) =>
  Math.max(...shop.tables.carriers!.flatMap((c) => [c.id, Number(c.id_reference)])) + 1;

/** A carrier of the merchant's own (Shipping › Carriers › Add): a new id that is its own reference. */
export function addCarrier(shop: PsShop, name: string): Row {
  const template = shop.tables.carriers!.find((c) => c.external_module_name === '')!;
  const id = nextCarrierId(shop);
  const row: Row = { ...template, id, id_reference: String(id), name };
  shop.tables.carriers!.push(row);
  return row;
}

/** The back office saving an edited carrier: a copy with a new id and the same reference, the old one deleted. */
export function editCarrier(shop: PsShop, carrierId: number, changes: Record<string, string> = {}): Row {
  const old = shop.tables.carriers!.find((c) => c.id === carrierId);
  if (!old) throw new Error(`fake PrestaShop: ${shop.slug} has no carrier ${carrierId}`);
  const id = nextCarrierId(shop);
  const row: Row = { ...old, ...changes, id };
  old.deleted = '1';
  shop.tables.carriers!.push(row);
  return row;
}
