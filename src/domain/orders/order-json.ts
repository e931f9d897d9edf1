import type { DataLevel } from '../emissions/allocation.ts';
import type { VehicleKind } from '../emissions/emission-factors.ts';
import type { DeliveryLocation } from '../places/location.ts';
import type { AddressWarning } from '../places/warnings.ts';
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
      : Form extends 'location'
        ? DeliveryLocation | null
        : Form extends 'co2e'
          ? OrderCo2e | null
          : Form extends 'warnings'
            ? AddressWarning[]
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
  location: (_, order) => deliveryLocationOf(order),
  co2e: (_, order) => co2eOf(order),
  warnings: (value) => warningsJson(value),
  tracking_url: (value, _, links) => `${links.trackingBaseUrl}${value as string}`,
};

/** The order's `delivery_location`: its four columns, or null unless all four are set. */
export function deliveryLocationOf(order: Order): DeliveryLocation | null {
  const { deliveryLat: lat, deliveryLng: lng, deliveryLocationPrecision, deliveryLocationSource } = order;
  if (lat === null || lng === null || deliveryLocationPrecision === null || deliveryLocationSource === null)
    return null;
  return { lat, lng, precision: deliveryLocationPrecision, source: deliveryLocationSource };
}

/** An order's greenhouse gases as the API shows them (SPEC §14). */
interface OrderCo2e {
  grams: number;
  /** The decree's data level: 1 default values … 4 measured. */
  data_level: DataLevel;
  /** The method's identifier (docs/emissions.md). */
  method: string;
  /** The vehicle kind whose factor was used. */
  vehicle: VehicleKind;
}

/** The order's `co2e`: null unless its figure is set (delivered or returned). */
function co2eOf(order: Order): OrderCo2e | null {
  const { co2eGrams: grams, co2eDataLevel: level, co2eMethod: method, co2eVehicle: vehicle } = order;
  if (grams === null || level === null || method === null || vehicle === null) return null;
  return { grams, data_level: level, method, vehicle };
}

/**
 * `address_warnings` member by member, `code` then `message`, a string or null each: the SQL
 * rendering (order-sql.ts) writes the same whatever a hand-made fix left in the column.
 */
function warningsJson(value: unknown): AddressWarning[] {
  if (!Array.isArray(value)) return [];
  const text = (x: unknown) => (typeof x === 'string' ? x : null);
  return value.map((w) => {
    const o = (typeof w === 'object' && w !== null ? w : {}) as Record<string, unknown>;
    return { code: text(o.code), message: text(o.message) } as AddressWarning;
  });
}

/** The given members of the order's JSON, in their order. */
function renderMembers(
  members: typeof ORDER_JSON_MEMBERS,
  order: Order,
  links: OrderLinks,
): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  for (const member of members) {
    json[member.name] = RENDER[member.form](member.field === null ? null : order[member.field], order, links);
  }
  return json;
}

/**
 * The public shape of an order, shared by the API and the webhooks so both always say the same
 * thing. Every field is present; a missing value is `null`. The list and detail routes send the
 * same JSON stored with the row (order-sql.ts); a property test holds the two byte-equal.
 */
export function orderJson(order: Order, links: OrderLinks): OrderJson {
  return renderMembers(ORDER_JSON_MEMBERS, order, links) as OrderJson;
}

/** One step of an order's history, as the detail shows it. */
interface OrderEventJson {
  status: OrderEvent['status'];
  at: string;
  note: string | null;
}

/** The detail view's JSON: the order's members and its history. */
export type OrderDetailJson = OrderJson & { events: OrderEventJson[] };

const eventJson = (e: OrderEvent): OrderEventJson => ({
  status: e.status,
  at: e.at.toISOString(),
  note: e.note,
});

/** The order with its status history, oldest first: the detail view. */
export function orderDetailJson(
  order: Order & { events: readonly OrderEvent[] },
  links: OrderLinks,
): OrderDetailJson {
  return { ...orderJson(order, links), events: order.events.map(eventJson) };
}

/**
 * The JSON is kept with the row. Reads are the hot path (a page of fifty orders, a detail polled by
 * integrations), and rendering some twenty members per order on every read cost the list half its
 * speed; so every write stores the members that depend only on the row (`STORED_JSON_MEMBERS`, as
 * `"status":…,"updated_at":…` text) and the history as its JSON array, and a read adds the members
 * up to the tracking URL, which depend on the deployment's address (`LIVE_JSON_MEMBERS`).
 */
const URL_MEMBER = ORDER_JSON_MEMBERS.findIndex((m) => m.form === 'tracking_url');
export const LIVE_JSON_MEMBERS = ORDER_JSON_MEMBERS.slice(0, URL_MEMBER + 1);
export const STORED_JSON_MEMBERS = ORDER_JSON_MEMBERS.slice(URL_MEMBER + 1);

/**
 * What the stored text was rendered with: a row stored under another version (written before a
 * member was added, renamed or re-formatted) is rendered from its columns instead, until rewritten
 * (`refresh_order_json`). A 32-bit FNV-1a of the stored members' spec and the VAT rate.
 */
export const STORED_JSON_VERSION = (() => {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify([STORED_JSON_MEMBERS, VAT_RATE])) {
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  }
  return hash | 0;
})();

// Each member's `"name":` (after a comma but for the first), field and rendering, for the texts
// below: they run for every order written or listed, so nothing is looked up by name and no
// object is built to be stringified.
const textParts = (members: typeof ORDER_JSON_MEMBERS) =>
  members.map((member, i) => ({
    prefix: `${i === 0 ? '' : ','}${JSON.stringify(member.name)}:`,
    field: member.field,
    render: RENDER[member.form],
  }));
const LIVE_PARTS = textParts(LIVE_JSON_MEMBERS);
const STORED_PARTS = textParts(STORED_JSON_MEMBERS);
const NO_LINKS: OrderLinks = { trackingBaseUrl: '' };

/** The stored members of the order's JSON as JSON.stringify writes them, without braces: `"status":…`. */
export function storedOrderJson(order: Order): string {
  let text = '';
  for (const part of STORED_PARTS) {
    const value = part.render(part.field === null ? null : order[part.field], order, NO_LINKS);
    text += part.prefix + JSON.stringify(value ?? null);
  }
  return text;
}

/**
 * `JSON.stringify(orderDetailJson(order, links))`, from the texts its creation stored (the stored
 * members and the history): the answer to the order's creation, without rendering it twice.
 */
export function orderDetailJsonText(
  order: Order,
  stored: string,
  history: string,
  links: OrderLinks,
): string {
  // The live members' fields are columns (order-sql.ts refuses a derived one).
  const live = liveOrderJson(
    LIVE_PARTS.map((part) => order[part.field!]),
    0,
    links,
  );
  return `{${live},${stored},"events":${history}}`;
}

/**
 * The members rendered at each read, without braces (`"tracking_ref":…,"tracking_url":…`), from
 * their fields' values in `values[from…]`, in `LIVE_JSON_MEMBERS` order (none is derived from
 * another field, as `vat_rate` is).
 */
export function liveOrderJson(values: readonly unknown[], from: number, links: OrderLinks): string {
  let text = '';
  for (let i = 0; i < LIVE_PARTS.length; i++) {
    const part = LIVE_PARTS[i]!;
    text += part.prefix + JSON.stringify(part.render(values[from + i], NO_ORDER, links));
  }
  return text;
}
const NO_ORDER = {} as Order;

/** One entry of the stored history, as the detail renders it. */
export const orderEventJsonText = (event: OrderEvent): string => JSON.stringify(eventJson(event));
