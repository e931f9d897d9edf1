import { centsToEuros, VAT_RATE } from '../pricing/money.ts';
import type { OrderEvent } from './order.ts';
import { type JsonForm, type ORDER_FIELDS, ORDER_JSON_MEMBERS, type Order } from './order-fields.ts';

type WithJson = Extract<(typeof ORDER_FIELDS)[number], { json: { name: string } }>;
type FieldType<F> = F extends { readonly __type?: infer T } ? T : never;
type JsonValue<F extends WithJson, Form extends JsonForm = F['json']['form']> = Form extends 'euros'
  ? null extends FieldType<F>
    ? number | null
    : number
  : Form extends 'instant'
    ? string
    : Form extends 'vat_rate'
      ? number | null
      : Form extends 'tracking_url'
        ? string
        : FieldType<F>;

/** The public shape of an order (SPEC §5), derived from the column map. */
export type OrderJson = { [F in WithJson as F['json']['name']]: JsonValue<F> };

/**
 * What the JSON needs beyond the order: the deployment's address, which is configuration, not
 * data. It is passed explicitly (deps.ts builds it once from the config) rather than read from a
 * module-level setting, so that two apps with different configs in one process (tests) each render
 * their own URLs; the SQL rendering takes the same value as a query parameter.
 */
export interface OrderLinks {
  /** `https://host/track/`: the tracking token is appended. */
  trackingBaseUrl: string;
}

/** `PUBLIC_BASE_URL` (or the listen address) → the order JSON's links. */
export function orderLinks(baseUrl: string): OrderLinks {
  return { trackingBaseUrl: `${baseUrl.replace(/\/+$/, '')}/track/` };
}

const RENDER: Record<JsonForm, (value: unknown, order: Order, links: OrderLinks) => unknown> = {
  plain: (value) => value,
  euros: (value) => (value === null ? null : centsToEuros(value as number)),
  instant: (value) => (value as Date).toISOString(),
  vat_rate: (_, order) => (order.priceCents === null ? null : VAT_RATE),
  tracking_url: (value, _, links) => `${links.trackingBaseUrl}${value as string}`,
};

/**
 * The public shape of an order, shared by the API and the webhooks so both always say the same
 * thing. Every field is present; a missing value is `null`. PostgreSQL renders the same JSON for the
 * list and detail routes (orders-sql.ts); a property test holds the two byte-equal.
 */
export function orderJson(order: Order, links: OrderLinks): OrderJson {
  const json: Record<string, unknown> = {};
  for (const member of ORDER_JSON_MEMBERS) {
    json[member.name] = RENDER[member.form](member.field === null ? null : order[member.field], order, links);
  }
  return json as OrderJson;
}

/** The order with its status history, oldest first: the detail view. */
export function orderDetailJson(order: Order & { events: readonly OrderEvent[] }, links: OrderLinks) {
  return {
    ...orderJson(order, links),
    events: order.events.map((e) => ({ status: e.status, at: e.at.toISOString(), note: e.note })),
  };
}
