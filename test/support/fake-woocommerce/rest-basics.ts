import { phpJsonEncode } from '../php-json.ts';
import type { Answer } from '../shop-http.ts';
import type { ApiKey, WooShop } from './state.ts';
import type { DeliveryOptions } from './webhooks.ts';

/** WP REST answers: JSON written by wp_json_encode, errors as {code, message, data: {status, …}}. */
export function wpJson(
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): Answer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...headers },
    body: phpJsonEncode(body),
  };
}

export function wpError(
  status: number,
  code: string,
  message: string,
  data: Record<string, unknown> = {},
): Answer {
  return wpJson(status, { code, message, data: { status, ...data } });
}

/** WordPress's argument validation failure for one parameter (rest_invalid_param). */
export function invalidParam(name: string, message: string, detailCode = 'rest_invalid_type'): Answer {
  return wpError(400, 'rest_invalid_param', `Invalid parameter(s): ${name}`, {
    params: { [name]: message },
    details: { [name]: { code: detailCode, message, data: null } },
  });
}

export function missingParam(name: string): Answer {
  return wpError(400, 'rest_missing_callback_param', `Missing parameter(s): ${name}`, { params: [name] });
}

export const noRoute = () =>
  wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

/** What an anonymous caller meets on each kind of route (rest_authorization_required_code() = 401). */
export const FORBIDDEN = {
  list: ['woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.'],
  view: ['woocommerce_rest_cannot_view', 'Sorry, you cannot view this resource.'],
  create: ['woocommerce_rest_cannot_create', 'Sorry, you are not allowed to create resources.'],
  edit: ['woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to edit this resource.'],
  delete: ['woocommerce_rest_cannot_delete', 'Sorry, you are not allowed to delete this resource.'],
} as const;
type Access = keyof typeof FORBIDDEN;

export interface RestContext {
  shop: WooShop;
  method: string;
  match: RegExpExecArray;
  query: URLSearchParams;
  body: Record<string, any>;
  key: ApiKey | null;
  delivery: DeliveryOptions;
}

export interface Route {
  methods: string[];
  path: RegExp;
  access: Access;
  /** Argument validation, which WordPress runs before the permission callback. */
  validate?: (ctx: RestContext) => Answer | undefined;
  handle: (ctx: RestContext) => Answer | Promise<Answer>;
  /** Only served when the shop runs the Shipment Tracking extension. */
  extension?: 'shipment-tracking';
}

export const READ = ['GET', 'HEAD'];
export const EDIT = ['POST', 'PUT', 'PATCH'];

/** A collection page with X-WP-Total, X-WP-TotalPages and the Link header (prev/next), as WC_REST_CRUD_Controller sends. */
export function paginate<T>(
  ctx: RestContext,
  collection: string,
  items: T[],
): { answer?: Answer; page: T[]; headers: Record<string, string | string[]> } {
  const perPage = intParam(ctx.query, 'per_page', 10);
  const page = intParam(ctx.query, 'page', 1);
  const offset = ctx.query.has('offset') ? intParam(ctx.query, 'offset', 0) : (page - 1) * perPage;
  const total = items.length;
  const maxPages = Math.ceil(total / perPage);
  const base = new URL(`${ctx.shop.url}/wp-json/${collection}`);
  for (const [k, v] of ctx.query) base.searchParams.append(k, v);
  const pageLink = (n: number) => {
    const url = new URL(base);
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${pageLink(Math.min(page - 1, Math.max(maxPages, 1)))}>; rel="prev"`);
  if (maxPages > page) links.push(`<${pageLink(page + 1)}>; rel="next"`);
  return {
    page: items.slice(offset, offset + perPage),
    headers: {
      'X-WP-Total': String(total),
      'X-WP-TotalPages': String(maxPages),
      ...(links.length ? { Link: links } : {}),
    },
  };
}

const intParam = (q: URLSearchParams, name: string, fallback: number) =>
  q.has(name) ? Number(q.get(name)) : fallback;

/** The collection arguments every list validates (per_page 1..100, page ≥ 1, order asc|desc). */
export function validateCollection(ctx: RestContext, orderby: string[]): Answer | undefined {
  const q = ctx.query;
  for (const [name, min, max] of [
    ['per_page', 1, 100],
    ['page', 1, Number.POSITIVE_INFINITY],
    ['offset', 0, Number.POSITIVE_INFINITY],
  ] as const) {
    if (!q.has(name)) continue;
    const value = Number(q.get(name));
    if (!Number.isInteger(value)) return invalidParam(name, `${name} is not of type integer.`);
    if (value < min || value > max) {
      const bound =
        max === Number.POSITIVE_INFINITY
          ? `${name} must be greater than or equal to ${min}`
          : `${name} must be between ${min} (inclusive) and ${max} (inclusive)`;
      return invalidParam(name, bound, 'rest_out_of_bounds');
    }
  }
  const order = q.get('order');
  if (order !== null && !['asc', 'desc'].includes(order))
    return invalidParam('order', 'order is not one of asc and desc.', 'rest_not_in_enum');
  const by = q.get('orderby');
  if (by !== null && !orderby.includes(by))
    return invalidParam('orderby', `orderby is not one of ${orderList(orderby)}.`, 'rest_not_in_enum');
  return undefined;
}

/** "a, b and c", as WordPress lists allowed values in its messages. */
export function orderList(values: readonly string[]): string {
  return values.length > 1 ? `${values.slice(0, -1).join(', ')} and ${values.at(-1)}` : (values[0] ?? '');
}
