import {
  type JsonForm,
  ORDER_COLUMNS,
  ORDER_JSON_MEMBERS,
  type Order,
} from '../../domain/orders/order-fields.ts';

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

/**
 * `orderJson` in SQL, member for member and in the same order, over the orders row aliased `o`.
 * Euros are cents / 100 in float8, the same IEEE division as in JavaScript; instants in
 * toISOString's format (UTC, milliseconds truncated, as the driver does when it parses a
 * timestamp). `vatRate` and `trackingBaseUrl` are the SQL of the VAT rate and `OrderLinks` parameters.
 */
export function orderJsonFields(vatRate: string, trackingBaseUrl: string): string {
  const column = (field: keyof Order | null) => ORDER_COLUMNS.find((c) => c.field === field)?.column;
  const sql: Record<JsonForm, (col: string | undefined) => string> = {
    plain: (col) => `o.${col}`,
    euros: (col) => `o.${col}::float8 / 100`,
    instant: (col) => `to_char(o.${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    vat_rate: () => `CASE WHEN o.price_cents IS NULL THEN NULL ELSE ${vatRate}::float8 END`,
    tracking_url: (col) => `${trackingBaseUrl}::text || o.${col}`,
  };
  return ORDER_JSON_MEMBERS.map((m) => `${sql[m.form](column(m.field))} AS ${m.name}`).join(', ');
}
