import { STORED_JSON_VERSION } from '../../domain/orders/order-json.ts';
import type { NewOrder } from '../../domain/orders/ports.ts';
import { pickupDateFor } from '../../domain/pickups/pickup-day.ts';
import type { OutboxEvent } from '../../events/outbox.ts';
import { coalescedStatements } from '../coalesced-statements.ts';
import { keyedOutboxCtes, outboxCtes } from '../outbox-sql.ts';
import type { Pool, Queryable } from '../pool.ts';
import { columnParameter, INSERT_COLUMNS } from './order-sql.ts';

/** A new order as its INSERT writes it: its columns, its stored JSON and history, its event if any. */
export interface NewOrderRow {
  order: NewOrder;
  /** Billable from: its creation when it was priced then (migration 0006), else null. */
  pricedAt: Date | null;
  history: string;
  storedJson: string;
  /** Written with the order (and their subscribers' jobs), only if the order is. */
  events: readonly (OutboxEvent | null)[];
}

/** The new order's id, or null when its tracking ref was taken (the caller draws another). */
export type Inserted = number | null;

const param = (field: keyof NewOrder) => `$${INSERT_COLUMNS.findIndex((c) => c.field === field) + 1}`;
const [PRICED_AT_PARAM, HISTORY_PARAM, JSON_PARAM] = [1, 2, 3].map((i) => `$${INSERT_COLUMNS.length + i}`);
const INSERT_STATEMENT = `INSERT INTO orders (${INSERT_COLUMNS.map((c) => c.column).join(', ')},
    updated_at, priced_at, history, json_rest, json_version)
  VALUES (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, ${param('createdAt')},
    ${PRICED_AT_PARAM}, ${HISTORY_PARAM}::json, ${JSON_PARAM}, ${STORED_JSON_VERSION})
  ON CONFLICT (tracking_ref) DO NOTHING
  RETURNING id`;

const insertValues = (row: NewOrderRow) => [
  ...INSERT_COLUMNS.map((c) => columnParameter(c.column, row.order[c.field as keyof NewOrder])),
  row.pricedAt,
  row.history,
  row.storedJson,
];

/**
 * The pickup a collectable order joins (migration 0030), created by the order's own statement if it
 * is the day's first: for the others, ON CONFLICT DO NOTHING costs one probe of the primary key and
 * writes nothing. Its day is the one the service derived the id from (pickupDateFor of the
 * creation's instant).
 */
const PICKUP_CTE = `p AS (INSERT INTO pickups (id, brand_id, pickup_address, pickup_date)
    VALUES (${param('pickupId')}, ${param('brandId')}, ${param('pickupAddress')}, $${INSERT_COLUMNS.length + 4}::date)
    ON CONFLICT (id) DO NOTHING)`;

/**
 * One order, with its pickup, its outbox event and its subscribers' jobs when someone listens, in
 * one statement. Only the id comes back: every other value is the one just sent (parsing a wide row
 * back would cost the hottest write more than its statement does). Prepared by name.
 */
export async function insertOrder(db: Queryable, row: NewOrderRow): Promise<Inserted> {
  const values = insertValues(row);
  const pickup = row.order.pickupId !== null;
  if (pickup) values.push(pickupDateFor(row.order.createdAt));
  const outbox = outboxCtes(row.events, values, 'o');
  const ctes = [pickup ? PICKUP_CTE : null, outbox ? `o AS (${INSERT_STATEMENT})` : null, outbox?.ctes]
    .filter(Boolean)
    .join(', ');
  const { rows } = await db.query<{ id: number }>({
    name: `orders.insert${pickup ? '.pickup' : ''}${outbox ? '.event' : ''}`,
    text: outbox
      ? `WITH ${ctes} SELECT o.id, ${outbox.select} FROM o`
      : `${ctes ? `WITH ${ctes} ` : ''}${INSERT_STATEMENT}`,
    values,
  });
  return rows[0]?.id ?? null;
}

/**
 * Many new orders in one statement: one JSON array of rows keyed by column, expanded into the
 * table's row type by PostgreSQL, which applies the columns' domains as it does to parameters —
 * the same columns and values as INSERT_STATEMENT. Each row is told apart by its tracking token
 * (unique, and drawn with the order): the events of the orders written go with them, and the ids
 * come back to their rows, even when two rows drew the same tracking ref (the first is written).
 */
const BATCH_COLUMNS = [...INSERT_COLUMNS.map((c) => c.column), 'updated_at', 'priced_at', 'json_rest'];
const INSERT_BATCH_STATEMENT = `INSERT INTO orders (${BATCH_COLUMNS.join(', ')}, history, json_version)
  SELECT ${BATCH_COLUMNS.map((c) => `r.${c}`).join(', ')}, r.history, ${STORED_JSON_VERSION}
    FROM json_populate_recordset(NULL::orders, $1::json) AS r
  ON CONFLICT (tracking_ref) DO NOTHING
  RETURNING id, tracking_token`;

/** One row of the batch's JSON array: its columns, and its history as the JSON it is. */
function batchRowJson(row: NewOrderRow): string {
  const columns: Record<string, unknown> = {};
  for (const c of INSERT_COLUMNS) columns[c.column] = row.order[c.field as keyof NewOrder];
  columns.updated_at = row.order.createdAt;
  columns.priced_at = row.pricedAt;
  columns.json_rest = row.storedJson;
  return `{"history":${row.history},${JSON.stringify(columns).slice(1)}`;
}

/** The batch's pickups, once each (PICKUP_CTE's rows for many orders): a JSON array, maybe empty. */
const PICKUPS_CTE = `p AS (INSERT INTO pickups (id, brand_id, pickup_address, pickup_date)
    SELECT id, brand_id, pickup_address, pickup_date FROM json_populate_recordset(NULL::pickups, $2::json)
    ON CONFLICT (id) DO NOTHING)`;

function pickupsJson(rows: NewOrderRow[]): string {
  const pickups = new Map<string, object>();
  for (const { order } of rows) {
    if (order.pickupId === null || pickups.has(order.pickupId)) continue;
    pickups.set(order.pickupId, {
      id: order.pickupId,
      brand_id: order.brandId,
      pickup_address: order.pickupAddress,
      pickup_date: pickupDateFor(order.createdAt),
    });
  }
  return JSON.stringify([...pickups.values()]);
}

async function insertOrders(db: Queryable, rows: NewOrderRow[]): Promise<Inserted[]> {
  const tokens = new Set(rows.map((r) => r.order.trackingToken));
  // Two rows with one token (128 random bits each: never seen) could not be told apart: each alone.
  if (tokens.size < rows.length) return Promise.all(rows.map((row) => insertOrder(db, row)));
  const values: unknown[] = [`[${rows.map(batchRowJson).join(',')}]`, pickupsJson(rows)];
  const events = rows.flatMap((r) =>
    r.events.flatMap((event) => (event ? [{ key: r.order.trackingToken, event }] : [])),
  );
  const outbox = keyedOutboxCtes(events, values, { cte: 'o', key: 'tracking_token' });
  const { rows: inserted } = await db.query<{ id: number; tracking_token: string }>({
    name: outbox ? 'orders.insertBatch.events' : 'orders.insertBatch',
    text: outbox
      ? `WITH ${PICKUPS_CTE}, o AS (${INSERT_BATCH_STATEMENT}), ${outbox.ctes} SELECT o.id, o.tracking_token, ${outbox.select} FROM o`
      : `WITH ${PICKUPS_CTE} ${INSERT_BATCH_STATEMENT}`,
    values,
  });
  const ids = new Map(inserted.map((r) => [r.tracking_token, r.id]));
  return rows.map((row) => ids.get(row.order.trackingToken) ?? null);
}

/** Creations on the pool, coalesced per turn of the event loop (a transaction's inserts are its own). */
export function coalescedOrderInserts(pool: Pool, maxBatch: number) {
  return coalescedStatements<NewOrderRow, Inserted>({
    one: (row) => insertOrder(pool, row),
    many: (rows) => insertOrders(pool, rows),
    maxBatch,
  });
}
