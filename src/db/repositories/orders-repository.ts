import type { Order, OrderEvent, OrderWithEvents } from '../../domain/orders/order.ts';
import {
  type OrderLinks,
  orderEventJsonText,
  STORED_JSON_VERSION,
  storedOrderJson,
} from '../../domain/orders/order-json.ts';
import type { ChangesQuery, JsonPage, PageQuery } from '../../domain/orders/order-page.ts';
import {
  AlreadyWritten,
  type NewOrder,
  type OrderStore,
  type RowWithMove,
} from '../../domain/orders/ports.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import type { PickupKey } from '../../domain/pickups/pickup-day.ts';
import type { OutboxEvent } from '../../events/outbox.ts';
import { outboxCtes } from '../outbox-sql.ts';
import { isPool, type Queryable } from '../pool.ts';
import { coalescedDetailLookups, findDetailJson } from './order-details.ts';
import { coalescedOrderInserts, insertOrder } from './order-inserts.ts';
import { coalescedPages, findPage, referencePrefixSql } from './order-pages.ts';
import {
  columnParameter,
  ORDER_JSON_SELECT,
  ORDER_SELECT,
  orderJsonText,
  storeJsonSql,
  toOrder,
  updatableColumn,
} from './order-sql.ts';

type EventRow = { status: OrderStatus; at: string; note: string | null };

const toEvents = (rows: EventRow[] | null): OrderEvent[] =>
  (rows ?? []).map((e) => ({ status: e.status, at: new Date(e.at), note: e.note }));

/** A row of `SELECT ${ORDER_SELECT}, history AS events`. */
const toOrderWithEvents = (row: Record<string, unknown>): OrderWithEvents => ({
  ...toOrder(row),
  events: toEvents(row.events as EventRow[]),
});

/**
 * The SET list of a change beside the values already `given` (column → parameter; `updated_at`
 * among them): the values `set` (a parameter each, appended to `values`), the event appended to
 * the history, `priced_at` when the change prices the order (its first price makes it billable
 * from the change's instant), and the stored JSON rendered from the new values.
 */
function changeAssignments(
  values: unknown[],
  given: Record<string, string>,
  set: Partial<NewOrder>,
  /** Appended to the history; null: a change the history does not show (an address's check). */
  event: { status: OrderStatus; at: Date; note: string | null } | null,
): string {
  // A new value as its column's type (the CASE's common type; a domain's base type, migration
  // 0024), the same expression wherever the parameter is read, so that PostgreSQL deduces one type
  // for it instead of two; the planner folds the CASE.
  const typed = (param: string, column: string) => `(CASE WHEN true THEN ${param} ELSE o.${column} END)`;
  const params: Record<string, string> = {};
  for (const [column, param] of Object.entries(given)) params[column] = typed(param, column);
  const assignments = Object.entries(set).map(([field, value]) => {
    const column = updatableColumn(field);
    params[column] = typed(`$${values.push(columnParameter(column, value))}`, column);
    return `${column} = ${params[column]}`;
  });
  const newValue = (column: string) => params[column] ?? `o.${column}`;
  if ('priceCents' in set) {
    assignments.push(
      `priced_at = CASE WHEN o.priced_at IS NULL AND ${newValue('price_cents')} IS NOT NULL THEN ${given.updated_at} ELSE o.priced_at END`,
    );
  }
  if (event !== null) {
    const entry = `$${values.push(orderEventJsonText(event))}`;
    assignments.push(
      `history = (left(o.history::text, -1) || CASE WHEN o.history::text = '[]' THEN '' ELSE ',' END || ${entry}::text || ']')::json`,
    );
  }
  assignments.push(storeJsonSql(newValue));
  return assignments.join(', ');
}

/** The pickup an order joins on a change, created by the change's statement if new (as on insert). */
function joinedPickupCte(values: unknown[], joins: PickupKey | undefined): string {
  if (!joins) return '';
  const at = (v: unknown) => `$${values.push(v)}`;
  return `p AS (INSERT INTO pickups (id, brand_id, pickup_address, pickup_date)
    VALUES (${at(joins.id)}, ${at(joins.brandId)}, ${at(joins.pickupAddress)}, ${at(joins.date)}::date)
    ON CONFLICT (id) DO NOTHING), `;
}

/**
 * At most this many creations, details or pages per coalesced statement (coalesced-statements.ts):
 * the requests of one turn of the event loop, under load a few dozen at most.
 */
const MAX_BATCH = 50;

export function ordersRepository(db: Queryable): OrderStore {
  // On the pool, statements of one kind asked for in the same turn are coalesced into one; inside
  // a transaction (a client), each runs as asked, in the transaction's order.
  const shared = isPool(db) ? db : null;
  const inserts = shared && coalescedOrderInserts(shared, MAX_BATCH);
  const details = shared && coalescedDetailLookups(shared, MAX_BATCH);
  const pages = shared && coalescedPages(shared, MAX_BATCH);
  return {
    /**
     * Inserts the order with its history (the creation event) and its stored JSON, and its outbox
     * event when someone listens, in one statement (order-inserts.ts). Returns the order with the
     * texts of its stored JSON and history (the creation's answer reuses them), or null when the
     * tracking ref is already taken (the caller draws another).
     */
    async insert(
      order: NewOrder,
      note: string | null,
      event: OutboxEvent | null,
      also: readonly (OutboxEvent | null)[] = [],
    ): Promise<{ order: Order; storedJson: string; history: string } | null> {
      const stored: Order = { ...order, id: 0, pickedUpAt: null, updatedAt: order.createdAt };
      const history = `[${orderEventJsonText({ status: order.status, at: order.createdAt, note })}]`;
      const storedJson = storedOrderJson(stored);
      // priced_at: an order created with a price is billable from its creation (migration 0006).
      const pricedAt = order.priceCents === null ? null : order.createdAt;
      const row = { order, pricedAt, history, storedJson, events: [event, ...also] };
      const id = inserts ? await inserts.run(row) : await insertOrder(db, row);
      if (id === null) return null;
      stored.id = id;
      return { order: stored, storedJson, history };
    },

    /** The order with its events, oldest first; `brandId` null only for the operator. */
    async findByRef(trackingRef: string, brandId: string | null): Promise<OrderWithEvents | null> {
      const { rows } = await db.query<Record<string, unknown> & { events: EventRow[] | null }>({
        name: 'orders.findByRef',
        text: `SELECT ${ORDER_SELECT}, history AS events FROM orders o
          WHERE tracking_ref = $1 AND ($2::text IS NULL OR brand_id = $2)`,
        values: [trackingRef, brandId],
      });
      return rows[0] ? toOrderWithEvents(rows[0]) : null;
    },

    async findByRefs(trackingRefs: readonly string[]): Promise<Map<string, OrderWithEvents>> {
      if (trackingRefs.length === 0) return new Map();
      const { rows } = await db.query<Record<string, unknown> & { events: EventRow[] | null }>({
        name: 'orders.findByRefs',
        text: `SELECT ${ORDER_SELECT}, history AS events FROM orders o WHERE tracking_ref = ANY($1::text[])`,
        values: [trackingRefs],
      });
      const found = rows.map(toOrderWithEvents);
      return new Map(found.map((order) => [order.trackingRef, order]));
    },

    /** The order behind a tracking page, with its events and its brand's name. */
    async findByTrackingToken(token: string): Promise<{ order: OrderWithEvents; brandName: string } | null> {
      const { rows } = await db.query<
        Record<string, unknown> & { events: EventRow[] | null; brand_name: string }
      >({
        name: 'orders.findByTrackingToken',
        text: `SELECT ${ORDER_SELECT}, (SELECT b.name FROM brands b WHERE b.id = o.brand_id) AS brand_name,
           history AS events FROM orders o WHERE tracking_token = $1`,
        values: [token],
      });
      const row = rows[0];
      return row ? { order: toOrderWithEvents(row), brandName: row.brand_name } : null;
    },

    /**
     * The brand's order in its public detail JSON (`orderDetailJson`), from the text stored with
     * the row (order-details.ts): the detail is a hot read, and this spares building an Order and
     * serialising it again.
     */
    async findDetailJson(trackingRef: string, brandId: string, links: OrderLinks): Promise<string | null> {
      const lookup = { trackingRef, brandId, links };
      return details ? details.run(lookup) : findDetailJson(db, lookup);
    },

    /**
     * A page of orders, newest first (`after`: the internal id of the previous page's last order),
     * each in its public JSON (`orderJson`) from the text stored with the row: the list route is the
     * heaviest read, and this spares it parsing some twenty columns and two timestamps per order and
     * serializing them again. A test holds this text byte-equal to `orderJson` of `findByRef`.
     * On the pool, the pages asked for in one turn share a statement (order-pages.ts).
     */
    listJson(brandId: string, q: PageQuery, links: OrderLinks): Promise<JsonPage> {
      const lookup = { brandId, q, links };
      return pages ? pages.run(lookup) : findPage(db, lookup);
    },

    /**
     * A page of the change feed: the brand's orders by (updated_at, id), oldest first, changed
     * before the horizon `q.before` (see CHANGE_FEED_LAG_MS), after `q.since` and after the previous
     * page's last position. Each row comes with its position, `updated_at` to the microsecond, for
     * the cursor. Index orders_brand_updated_idx (migration 0019); statements prepared per filter set.
     */
    async listChangedJson(
      brandId: string,
      q: ChangesQuery,
      links: OrderLinks,
    ): Promise<Array<{ id: number; at: string; json: string }>> {
      const values: unknown[] = [brandId, q.before];
      let where = 'o.brand_id = $1 AND o.updated_at < $2';
      if (q.status !== null) where += ` AND o.status = $${values.push(q.status)}`;
      if (q.referencePrefix !== null)
        where += referencePrefixSql(q.referencePrefix, (from, to) => [
          `$${values.push(from)}`,
          `$${values.push(to)}`,
        ]);
      if (q.since !== null) where += ` AND o.updated_at > $${values.push(q.since)}`;
      if (q.after !== null) {
        where += ` AND (o.updated_at, o.id) > ($${values.push(q.after.at)}::timestamptz, $${values.push(q.after.id)})`;
      }
      const flags = `${q.status !== null ? 's' : ''}${q.referencePrefix !== null ? 'r' : ''}${q.since !== null ? 'f' : ''}${q.after !== null ? 'a' : ''}`;
      const { rows } = await db.query<unknown[]>({
        name: `orders.listChangedJson.${flags}`,
        text: `SELECT o.id, to_char(o.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
            ${ORDER_JSON_SELECT}
          FROM orders o
          WHERE ${where} ORDER BY o.updated_at, o.id LIMIT $${values.push(q.limit)}`,
        values,
        rowMode: 'array',
      });
      return rows.map((row) => ({
        id: row[0] as number,
        at: row[1] as string,
        json: orderJsonText(row, 2, links),
      }));
    },

    /** Moves the order from `from` to `to` (with its event and outbox events); null if it was no longer in `from`. */
    async transition(
      orderId: number,
      change: {
        from: OrderStatus;
        to: OrderStatus;
        note: string | null;
        at: Date;
        set?: Partial<NewOrder>;
        joins?: PickupKey;
      },
      events: readonly (OutboxEvent | null)[],
      withMove: readonly RowWithMove[] = [],
    ): Promise<OrderWithEvents | null> {
      const values: unknown[] = [orderId, change.to, change.from, change.at];
      // $2 is text wherever it is read (the SET casts it; the column's domain checks it there).
      const given = { status: '$2', updated_at: '$4' };
      const event = { status: change.to, at: change.at, note: change.note };
      const assignments = changeAssignments(values, given, change.set ?? {}, event);
      const outbox = outboxCtes(events, values, 'o');
      const pickup = joinedPickupCte(values, change.joins);
      const rows = withMoveCtes(withMove, values);
      try {
        const { rows: moved } = await db.query(
          `WITH ${pickup}o AS (
            UPDATE orders o SET status = $2::text, updated_at = $4,
              picked_up_at = CASE WHEN $3 = 'pending' AND $2 <> 'cancelled' THEN $4 ELSE o.picked_up_at END,
              ${assignments}
            WHERE o.id = $1 AND o.status = $3
            RETURNING ${ORDER_SELECT}, history AS events
          )${outbox ? `, ${outbox.ctes}` : ''}${rows}
          SELECT o.*${outbox ? `, ${outbox.select}` : ''} FROM o`,
          values,
        );
        return moved[0] ? toOrderWithEvents(moved[0]) : null;
      } catch (err) {
        const table = withMove.find((row) => isPrimaryKeyClash(err, row.table))?.table;
        if (table) throw new AlreadyWritten(table);
        throw err;
      }
    },

    /** Updates details without a status change, if the order is still in `status`; appends an event. */
    async updateDetails(
      orderId: number,
      change: { status: OrderStatus; note: string; at: Date; set: Partial<NewOrder>; joins?: PickupKey },
      events: readonly (OutboxEvent | null)[] = [],
    ): Promise<OrderWithEvents | null> {
      const values: unknown[] = [orderId, change.status, change.at];
      const event = { status: change.status, at: change.at, note: change.note };
      const assignments = changeAssignments(values, { updated_at: '$3' }, change.set, event);
      const pickup = joinedPickupCte(values, change.joins);
      const outbox = outboxCtes(events, values, 'o');
      const update = `UPDATE orders o SET updated_at = $3, ${assignments} WHERE o.id = $1 AND o.status = $2
          RETURNING ${ORDER_SELECT}, history AS events`;
      const { rows } = await db.query(
        outbox
          ? `WITH ${pickup}o AS (${update}), ${outbox.ctes} SELECT o.*, ${outbox.select} FROM o`
          : `${pickup ? `WITH ${pickup.slice(0, -2)} ` : ''}${update}`,
        values,
      );
      return rows[0] ? toOrderWithEvents(rows[0]) : null;
    },

    async recordPlace(
      orderId: number,
      change: { address: string; at: Date; set: Partial<NewOrder> },
      events: readonly (OutboxEvent | null)[],
    ): Promise<Order | null> {
      const values: unknown[] = [orderId, change.address, change.at];
      const assignments = changeAssignments(values, { updated_at: '$3' }, change.set, null);
      const outbox = outboxCtes(events, values, 'o');
      const update = `UPDATE orders o SET updated_at = $3, ${assignments}
          WHERE o.id = $1 AND o.delivery_address = $2 AND o.address_check_due_at IS NOT NULL
          RETURNING ${ORDER_SELECT}`;
      const { rows } = await db.query(
        outbox ? `WITH o AS (${update}), ${outbox.ctes} SELECT o.*, ${outbox.select} FROM o` : update,
        values,
      );
      return rows[0] ? toOrder(rows[0]) : null;
    },

    async addressChecksDue(now: Date, limit: number): Promise<Order[]> {
      const { rows } = await db.query(
        `SELECT ${ORDER_SELECT} FROM orders o
          WHERE o.address_check_due_at IS NOT NULL AND o.address_check_due_at <= $1
          ORDER BY o.address_check_due_at, o.id LIMIT $2`,
        [now, limit],
      );
      return rows.map(toOrder);
    },

    /**
     * Bills the order again from `at` (its month's invoice, not issued yet), at its current price:
     * a re-priced order whose issued invoice line a credit note just took back (migration 0027).
     */
    async rebill(orderId: number, at: Date): Promise<void> {
      await db.query('UPDATE orders SET priced_at = $2 WHERE id = $1', [orderId, at]);
    },

    /**
     * Stores the JSON of the rows stored under another version (see STORED_JSON_VERSION), rendered
     * from their columns, among the `limit` orders after the id `after` — all of them, or with
     * `onlyMarked` only those marked stale (json_version NULL, a partial index). Returns how many it
     * rewrote and the last id it looked at (null past the end). Reads of those rows were right
     * meanwhile, only slower.
     */
    async refreshStoredJson(
      after: number,
      limit: number,
      onlyMarked = false,
    ): Promise<{ refreshed: number; last: number | null }> {
      const { rows } = await db.query<{ refreshed: number; last: number | null }>(
        `WITH r AS (SELECT id FROM orders WHERE id > $1${onlyMarked ? ' AND json_version IS NULL' : ''} ORDER BY id LIMIT $2),
          u AS (UPDATE orders o SET ${storeJsonSql()} FROM r
                 WHERE o.id = r.id AND o.json_version IS DISTINCT FROM ${STORED_JSON_VERSION} RETURNING 1)
        SELECT (SELECT count(*) FROM u)::int AS refreshed, (SELECT max(id) FROM r) AS last`,
        [after, limit],
      );
      return rows[0]!;
    },

    /** Whether a pass over every order finished for this version of the stored JSON. */
    async storedJsonPassDone(): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM order_json_passes WHERE version = $1', [
        STORED_JSON_VERSION,
      ]);
      return rows.length > 0;
    },

    async recordStoredJsonPass(at: Date): Promise<void> {
      await db.query(
        'INSERT INTO order_json_passes (version, finished_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [STORED_JSON_VERSION, at],
      );
    },
  };
}

const SQL_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * The rows written with a move, as CTEs inserting each only if the move's row is found in `o`;
 * their values appended to `values`, each cast to its column's type (a parameter in a SELECT list
 * has no type of its own).
 */
function withMoveCtes(rows: readonly RowWithMove[], values: unknown[]): string {
  return rows
    .map((row, i) => {
      const names = [row.table, ...row.columns.flatMap((c) => [c.name, c.type])];
      if (!names.every((name) => SQL_NAME.test(name)))
        throw new Error(`not a SQL name in ${names.join(', ')}`);
      const params = row.columns.map((column, j) => {
        values.push(row.values[j]);
        return `$${values.length}::${column.type}`;
      });
      return `, with_move_${i} AS (INSERT INTO ${row.table} (${row.columns.map((c) => c.name).join(', ')})
          SELECT ${params.join(', ')} FROM o)`;
    })
    .join('');
}

/** A unique violation on the table's primary key (PostgreSQL names it `<table>_pkey`). */
const isPrimaryKeyClash = (err: unknown, table: string) =>
  (err as { code?: string }).code === '23505' &&
  (err as { constraint?: string }).constraint === `${table}_pkey`;
