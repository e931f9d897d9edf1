import { ORDER_COLUMNS, type Order } from '../../domain/orders/order-fields.ts';
import {
  LIVE_JSON_MEMBERS,
  liveOrderJson,
  type OrderLinks,
  STORED_JSON_MEMBERS,
  STORED_JSON_VERSION,
} from '../../domain/orders/order-json.ts';
import { VAT_RATE } from '../../domain/pricing/money.ts';

type JsonMember = (typeof STORED_JSON_MEMBERS)[number];

/**
 * The orders table's statements' pieces, all derived from the domain's column map
 * (order-fields.ts): adding a field there adds it to every SELECT, INSERT and JSON rendering here.
 */

/** Every stored column, unqualified, for SELECT and RETURNING lists. */
export const ORDER_SELECT = ORDER_COLUMNS.map((c) => c.column).join(', ');

/** A row of `SELECT ${ORDER_SELECT}` as the domain's order. */
export function toOrder(row: Record<string, unknown>): Order {
  const order: Record<string, unknown> = {};
  for (const { field, column } of ORDER_COLUMNS) order[field] = row[column];
  return order as Order;
}

/** Columns the INSERT writes, in order; `updated_at` starts equal to `created_at`. */
export const INSERT_COLUMNS = ORDER_COLUMNS.filter((c) => c.write !== 'never');

/** camelCase field → column, only for fields an update may set (never from user input directly). */
const UPDATABLE = new Map(ORDER_COLUMNS.filter((c) => c.write === 'update').map((c) => [c.field, c.column]));
export function updatableColumn(field: string): string {
  const column = UPDATABLE.get(field as keyof Order);
  if (!column) throw new Error(`field ${field} cannot be updated`);
  return column;
}

/** The SQL of a column's value: the row's (`o.column`), or a statement's parameter for a new value. */
export type ColumnSql = (column: string) => string;
const ROW: ColumnSql = (column) => `o.${column}`;

const columnOf = (field: keyof Order | null) => ORDER_COLUMNS.find((c) => c.field === field)?.column ?? '';

/**
 * One member's value in SQL, as `orderJson` renders it. Euros are cents / 100 in float8, the same
 * IEEE division as in JavaScript; instants in toISOString's format (UTC, milliseconds truncated, as
 * the driver does when it parses a timestamp). `trackingBaseUrl` is the SQL of the `OrderLinks`
 * parameter.
 */
function memberSql(member: JsonMember, value: ColumnSql, trackingBaseUrl: string): string {
  const col = value(columnOf(member.field));
  switch (member.form) {
    case 'plain':
      return col;
    case 'euros':
      return `${col}::float8 / 100`;
    case 'instant':
      return `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    case 'vat_rate':
      return `CASE WHEN ${value('price_cents')} IS NULL THEN NULL ELSE ${VAT_RATE}::float8 END`;
    case 'location':
      return locationSql(value);
    case 'co2e':
      return co2eSql(value);
    case 'warnings':
      return warningsSql(col);
    case 'tracking_url':
      return `${trackingBaseUrl}::text || ${col}`;
  }
}

/**
 * `delivery_location` as `deliveryLocationOf` renders it: null unless the four columns are set. The
 * object is concatenated, not built by json_build_object (whose text has spaces JSON.stringify does
 * not write); a float8's text is its shortest exact form, as JavaScript's (PostgreSQL 12 and later).
 */
function locationSql(value: ColumnSql): string {
  const [lat, lng, precision, source] = [
    'delivery_lat',
    'delivery_lng',
    'delivery_location_precision',
    'delivery_location_source',
  ].map(value) as [string, string, string, string];
  return `CASE WHEN ${lat} IS NULL OR ${lng} IS NULL OR ${precision} IS NULL OR ${source} IS NULL THEN NULL
    ELSE ('{"lat":' || ${lat}::float8::text || ',"lng":' || ${lng}::float8::text || ',"precision":'
      || to_json(${precision}::text)::text || ',"source":' || to_json(${source}::text)::text || '}')::json END`;
}

/** `co2e` as `co2eOf` renders it: null unless its four columns are set. */
function co2eSql(value: ColumnSql): string {
  const [grams, level, method, vehicle] = [
    'co2e_grams',
    'co2e_data_level',
    'co2e_method',
    'co2e_vehicle',
  ].map(value) as [string, string, string, string];
  return `CASE WHEN ${grams} IS NULL OR ${level} IS NULL OR ${method} IS NULL OR ${vehicle} IS NULL THEN NULL
    ELSE ('{"grams":' || ${grams}::integer::text || ',"data_level":' || ${level}::integer::text || ',"method":'
      || to_json(${method}::text)::text || ',"vehicle":' || to_json(${vehicle}::text)::text || '}')::json END`;
}

/** `address_warnings` as `warningsJson` renders it: each entry's `code` and `message`, string or null. */
function warningsSql(col: string): string {
  const member = (name: string) =>
    `CASE WHEN jsonb_typeof(w->'${name}') = 'string' THEN to_json(w->>'${name}')::text ELSE 'null' END`;
  return `(SELECT coalesce('[' || string_agg('{"code":' || ${member('code')} || ',"message":' || ${member('message')} || '}', ',' ORDER BY n) || ']', '[]')
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${col}) = 'array' THEN ${col} ELSE '[]' END) WITH ORDINALITY AS e(w, n))::json`;
}

/** A column's value as a statement's parameter: a JSON column's as its text (the driver would send an array as a PostgreSQL array). */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['address_warnings']);
export const columnParameter = (column: string, value: unknown): unknown =>
  JSON_COLUMNS.has(column) && value !== null && value !== undefined ? JSON.stringify(value) : value;

/**
 * `storedOrderJson` in SQL (members rendered by row_to_json, whose separators are JSON.stringify's,
 * braces cut off), from the row's columns or from new values (an UPDATE's SET, where `o.` is the row
 * before the change).
 */
export function storedJsonSql(value: ColumnSql = ROW): string {
  const fields = STORED_JSON_MEMBERS.map((m) => `${memberSql(m, value, "''")} AS ${m.name}`).join(', ');
  return `(SELECT left(substr(row_to_json(r)::text, 2), -1) FROM (SELECT ${fields}) r)`;
}

/** Assignments that store the row's JSON, rendered from `value`s (by default the row's own). */
export const storeJsonSql = (value: ColumnSql = ROW) =>
  `json_rest = ${storedJsonSql(value)}, json_version = ${STORED_JSON_VERSION}`;

const LIVE_FIELDS = LIVE_JSON_MEMBERS.map((m) => {
  if (m.field === null) throw new Error(`${m.name}: a member rendered at each read comes from a column`);
  return m.field;
});

/**
 * What a read of the order's JSON selects over the row aliased `o` (for `orderJsonText`): the
 * columns of the members rendered at each read, and the stored text as `json_rest` — or, for a row
 * stored under another version, the same members rendered from its columns.
 */
export const ORDER_JSON_SELECT = [
  ...LIVE_FIELDS.map((field) => `o.${columnOf(field)}`),
  `CASE WHEN o.json_version = ${STORED_JSON_VERSION} THEN o.json_rest ELSE ${storedJsonSql()} END AS json_rest`,
].join(', ');

/**
 * The columns of `ORDER_JSON_SELECT`, from `values[from]` on (a row read with `rowMode: 'array'`,
 * which spares the driver an object per row), as the order's public JSON text, byte-equal to
 * `orderJson` (a property test holds it so); with `events` (the stored history's text), the
 * detail. Assembled here rather than by PostgreSQL: a concatenation in JavaScript copies nothing,
 * one in SQL copies each order's text once more before sending it.
 */
export function orderJsonText(
  values: readonly unknown[],
  from: number,
  links: OrderLinks,
  events?: string,
): string {
  const live = liveOrderJson(values, from, links);
  const rest = values[from + LIVE_FIELDS.length] as string;
  return `{${live},${rest}${events === undefined ? '' : `,"events":${events}`}}`;
}
