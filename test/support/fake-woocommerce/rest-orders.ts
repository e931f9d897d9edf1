import { gmtTime, parseQueryDate, wallTime } from './dates.ts';
import { orderDocument, productDocument } from './documents.ts';
import {
  EDIT,
  invalidParam,
  missingParam,
  orderList,
  paginate,
  READ,
  type RestContext,
  type Route,
  validateCollection,
  wpError,
  wpJson,
} from './rest-basics.ts';
import { nextId, ORDER_STATUSES, type OrderStatus, type WooOrder, type WooShop } from './state.ts';
import { queueOrderEvent } from './webhooks.ts';

/**
 * /wp-json/wc/v3 orders, order notes, products and the weight-unit setting.
 * Filters follow WC_REST_Orders_Controller: status (one or a comma list, `any` by default),
 * after/before (date created), modified_after/modified_before (date modified), compared in the site's
 * timezone unless dates_are_gmt=true, strictly ("after" excludes the given second), at one-second
 * precision — a poll that restarts from the last date_modified it saw must overlap.
 */

const ORDERBY = ['date', 'id', 'include', 'title', 'slug', 'modified'];
const LISTED = ORDER_STATUSES.filter((s) => s !== 'trash' && s !== 'checkout-draft');
const DATE_FILTERS = ['after', 'before', 'modified_after', 'modified_before'] as const;

function statuses(ctx: RestContext): string[] {
  return ctx.query
    .getAll('status')
    .flatMap((s) => s.split(','))
    .filter(Boolean);
}

function validateOrderList(ctx: RestContext) {
  const invalid = validateCollection(ctx, ORDERBY);
  if (invalid) return invalid;
  const allowed = ['any', ...ORDER_STATUSES];
  const bad = statuses(ctx).find((s) => !allowed.includes(s));
  if (bad !== undefined)
    return invalidParam('status', `status[0] is not one of ${orderList(allowed)}.`, 'rest_not_in_enum');
  for (const name of DATE_FILTERS) {
    const value = ctx.query.get(name);
    if (value !== null && parseQueryDate(value, 'UTC') === null)
      return invalidParam(name, 'Invalid date.', 'rest_invalid_date');
  }
  return undefined;
}

function listOrders(ctx: RestContext) {
  const { shop, query } = ctx;
  const gmt = ['true', '1'].includes(query.get('dates_are_gmt') ?? '');
  const zone = gmt ? 'UTC' : shop.timeZone;
  const wanted = statuses(ctx);
  const keep = wanted.length === 0 || wanted.includes('any') ? LISTED : wanted;
  const bound = (name: (typeof DATE_FILTERS)[number]) =>
    query.has(name) ? parseQueryDate(query.get(name)!, zone) : null;
  const [after, before, modAfter, modBefore] = DATE_FILTERS.map(bound);
  const include = query
    .getAll('include')
    .flatMap((v) => v.split(','))
    .filter(Boolean)
    .map(Number);
  let orders = shop.orders.filter(
    (o) =>
      (keep as readonly string[]).includes(o.status) &&
      (after === null || o.createdAt > after!) &&
      (before === null || o.createdAt < before!) &&
      (modAfter === null || o.modifiedAt > modAfter!) &&
      (modBefore === null || o.modifiedAt < modBefore!) &&
      (include.length === 0 || include.includes(o.id)),
  );
  const by = query.get('orderby') ?? 'date';
  const sign = (query.get('order') ?? 'desc') === 'asc' ? 1 : -1;
  const key = (o: WooOrder) => (by === 'date' ? o.createdAt : by === 'modified' ? o.modifiedAt : 0);
  orders = [...orders].sort((a, b) =>
    by === 'include'
      ? include.indexOf(a.id) - include.indexOf(b.id)
      : sign * (key(a) - key(b) || a.id - b.id),
  );
  const { page, headers } = paginate(ctx, 'wc/v3/orders', orders);
  return wpJson(
    200,
    page.map((o) => orderDocument(shop, o)),
    headers,
  );
}

export function findOrder(shop: WooShop, id: string | undefined): WooOrder | undefined {
  return shop.orders.find((o) => String(o.id) === id && o.status !== 'checkout-draft');
}

/** Saves a change the way WC_Order::save() does: date_modified moves (to the second), order.updated fires. */
export function touch(shop: WooShop, order: WooOrder): void {
  order.modifiedAt = Math.floor(Date.now() / 1000) * 1000;
  queueOrderEvent(shop, order.id, 'updated');
}

export function setStatus(shop: WooShop, order: WooOrder, status: OrderStatus): void {
  order.status = status;
  const now = Math.floor(Date.now() / 1000) * 1000;
  if (['processing', 'completed'].includes(status) && order.paidAt === null) order.paidAt = now;
  if (status === 'completed' && order.completedAt === null) order.completedAt = now;
  touch(shop, order);
}

function updateOrder(ctx: RestContext) {
  const order = findOrder(ctx.shop, ctx.match[1]);
  if (!order) return wpError(400, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
  const body = ctx.body;
  if (body.billing && typeof body.billing === 'object') Object.assign(order.billing, body.billing);
  if (body.shipping && typeof body.shipping === 'object') Object.assign(order.shipping, body.shipping);
  if (typeof body.customer_note === 'string') order.customerNote = body.customer_note;
  if (body.status !== undefined && body.status !== order.status) setStatus(ctx.shop, order, body.status);
  else touch(ctx.shop, order);
  return wpJson(200, orderDocument(ctx.shop, order));
}

function validateOrderBody(ctx: RestContext) {
  const status = ctx.body.status;
  if (status !== undefined && !(ORDER_STATUSES as readonly string[]).includes(status))
    return invalidParam('status', `status is not one of ${orderList(ORDER_STATUSES)}.`, 'rest_not_in_enum');
  return undefined;
}

function noteDocument(ctx: RestContext, note: WooShop['notes'][number]) {
  const api = `${ctx.shop.url}/wp-json/wc/v3/orders/${note.orderId}`;
  return {
    id: note.id,
    author: note.author,
    date_created: wallTime(note.createdAt, ctx.shop.timeZone),
    date_created_gmt: gmtTime(note.createdAt),
    note: note.note,
    customer_note: note.customerNote,
    _links: {
      self: [{ href: `${api}/notes/${note.id}` }],
      collection: [{ href: `${api}/notes` }],
      up: [{ href: api }],
    },
  };
}

const truthy = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1;

function addNote(ctx: RestContext) {
  const order = findOrder(ctx.shop, ctx.match[1]);
  if (!order) return wpError(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
  const note = {
    id: nextId(ctx.shop),
    orderId: order.id,
    note: String(ctx.body.note),
    customerNote: truthy(ctx.body.customer_note),
    // add_order_note() without added_by_user credits "WooCommerce", which the API shows as "system".
    author: truthy(ctx.body.added_by_user) ? 'Boutique Admin' : 'system',
    createdAt: Date.now(),
  };
  ctx.shop.notes.push(note);
  const location = `${ctx.shop.url}/wp-json/wc/v3/orders/${order.id}/notes/${note.id}`;
  return wpJson(201, noteDocument(ctx, note), { Location: location });
}

function listNotes(ctx: RestContext) {
  const order = findOrder(ctx.shop, ctx.match[1]);
  if (!order) return wpError(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
  const type = ctx.query.get('type') ?? 'any';
  const notes = ctx.shop.notes
    .filter((n) => n.orderId === order.id)
    .filter((n) => type === 'any' || (type === 'customer') === n.customerNote)
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  return wpJson(
    200,
    notes.map((n) => noteDocument(ctx, n)),
  );
}

export const ORDER_ROUTES: Route[] = [
  {
    methods: READ,
    path: /^\/wc\/v3\/orders$/,
    access: 'list',
    validate: validateOrderList,
    handle: listOrders,
  },
  {
    methods: READ,
    path: /^\/wc\/v3\/orders\/(\d+)$/,
    access: 'view',
    handle: (ctx) => {
      const order = findOrder(ctx.shop, ctx.match[1]);
      if (!order) return wpError(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
      return wpJson(200, orderDocument(ctx.shop, order));
    },
  },
  {
    methods: EDIT,
    path: /^\/wc\/v3\/orders\/(\d+)$/,
    access: 'edit',
    validate: validateOrderBody,
    handle: updateOrder,
  },
  { methods: READ, path: /^\/wc\/v3\/orders\/(\d+)\/notes$/, access: 'list', handle: listNotes },
  {
    methods: ['POST'],
    path: /^\/wc\/v3\/orders\/(\d+)\/notes$/,
    access: 'create',
    validate: (ctx) =>
      typeof ctx.body.note === 'string' && ctx.body.note !== '' ? undefined : missingParam('note'),
    handle: addNote,
  },
  {
    methods: READ,
    path: /^\/wc\/v3\/products\/(\d+)$/,
    access: 'view',
    handle: (ctx) => {
      const product = ctx.shop.products.find((p) => String(p.id) === ctx.match[1]);
      if (!product) return wpError(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
      return wpJson(200, productDocument(ctx.shop, product));
    },
  },
  {
    methods: READ,
    path: /^\/wc\/v3\/settings\/products\/woocommerce_weight_unit$/,
    access: 'view',
    handle: (ctx) =>
      wpJson(200, {
        id: 'woocommerce_weight_unit',
        label: 'Weight unit',
        description: 'This controls what unit you will define weights in.',
        type: 'select',
        default: 'kg',
        options: { kg: 'kg', g: 'g', lbs: 'lbs', oz: 'oz' },
        tip: 'This controls what unit you will define weights in.',
        value: ctx.shop.weightUnit,
        group_id: 'products',
      }),
  },
];
