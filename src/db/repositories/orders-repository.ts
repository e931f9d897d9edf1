import type { Order, OrderEvent, OrderWithEvents } from '../../domain/orders/order.ts';
import type { OrderLinks } from '../../domain/orders/order-json.ts';
import type { ChangesQuery } from '../../domain/orders/order-page.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import { VAT_RATE } from '../../domain/pricing/money.ts';
import type { OutboxEvent } from '../../events/outbox.ts';
import { outboxCtes } from '../outbox-sql.ts';
import type { Queryable } from '../pool.ts';
import { INSERT_COLUMNS, ORDER_SELECT, orderJsonFields, toOrder, updatableColumn } from './order-sql.ts';

/** One page of a brand's orders, newest first, after the order `after` (keyset on created_at, id). */
export interface PageQuery {
  status: OrderStatus | null;
  /** Only orders whose `reference` starts with this (the account area's search); null for all. */
  referencePrefix?: string | null;
  limit: number;
  after: number | null;
}

export type NewOrder = Omit<Order, 'id' | 'pickedUpAt' | 'updatedAt'>;

type EventRow = { status: OrderStatus; at: string; note: string | null };

const toEvents = (rows: EventRow[] | null): OrderEvent[] =>
  (rows ?? []).map((e) => ({ status: e.status, at: new Date(e.at), note: e.note }));

const instant = (sql: string) => `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// The order's JSON as `orderJson` renders it, $2 being VAT_RATE and $3 the tracking base URL; the
// detail adds its events, each rendered by row_to_json with compact separators like
// JSON.stringify's (json_agg and json_build_object would add spaces).
const JSON_FIELDS = orderJsonFields('$2', '$3');
const DETAIL_EVENTS = `(SELECT coalesce('[' || string_agg(
      row_to_json((SELECT r FROM (SELECT e.status, ${instant('e.at')} AS at, e.note) r))::text, ',' ORDER BY e.id) || ']', '[]')::json
    FROM order_events e WHERE e.order_id = o.id)`;

/**
 * Orders whose reference starts with `prefix`, as a range in byte order (the index's collation): a
 * string starting with the prefix sorts between it and it followed by the highest code point
 * (unless that noncharacter comes next). Parameters are appended to `values`.
 */
function referencePrefixSql(prefix: string, values: unknown[]): string {
  return ` AND o.reference COLLATE "C" >= $${values.push(prefix)} AND o.reference COLLATE "C" < $${values.push(`${prefix}\u{10FFFF}`)}`;
}

const insertValues = (order: NewOrder) => INSERT_COLUMNS.map((c) => order[c.field as keyof NewOrder]);
const INSERT_STATEMENT = `INSERT INTO orders (${INSERT_COLUMNS.map((c) => c.column).join(', ')}, updated_at)
  VALUES (${INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, $${INSERT_COLUMNS.findIndex((c) => c.field === 'createdAt') + 1})
  ON CONFLICT (tracking_ref) DO NOTHING
  RETURNING id, status, created_at`;
const NOTE_PARAM = INSERT_COLUMNS.length + 1;

export function ordersRepository(db: Queryable) {
  return {
    /**
     * Inserts the order with its first event, and its outbox event when someone listens, in one
     * statement. Returns null when the tracking ref is already taken (the caller draws another).
     * Prepared by name: with no listener it is the service's hottest write.
     */
    async insert(order: NewOrder, note: string | null, event: OutboxEvent | null): Promise<Order | null> {
      const values = [...insertValues(order), note];
      const outbox = outboxCtes([event], values, 'o');
      const { rows } = await db.query({
        name: outbox ? 'orders.insert.event' : 'orders.insert',
        text: `WITH o AS (${INSERT_STATEMENT}),
          e AS (INSERT INTO order_events (order_id, status, note, at) SELECT id, status, $${NOTE_PARAM}, created_at FROM o)
          ${outbox ? `, ${outbox.ctes}` : ''}
          SELECT o.id${outbox ? `, ${outbox.select}` : ''} FROM o`,
        values,
      });
      // Only the id comes back: every other value is the one just sent (parsing a wide row back
      // would cost the hottest write more than its statement does).
      const row = rows[0] as { id: number } | undefined;
      return row ? { ...order, id: row.id, pickedUpAt: null, updatedAt: order.createdAt } : null;
    },

    /** The order with its events, oldest first; `brandId` null only for the operator. */
    async findByRef(trackingRef: string, brandId: string | null): Promise<OrderWithEvents | null> {
      const { rows } = await db.query<Record<string, unknown> & { events: EventRow[] | null }>({
        name: 'orders.findByRef',
        text: `SELECT ${ORDER_SELECT},
           (SELECT json_agg(json_build_object('status', e.status, 'at', e.at, 'note', e.note) ORDER BY e.id)
              FROM order_events e WHERE e.order_id = o.id) AS events
           FROM orders o
          WHERE tracking_ref = $1 AND ($2::text IS NULL OR brand_id = $2)`,
        values: [trackingRef, brandId],
      });
      const row = rows[0];
      return row ? { ...toOrder(row), events: toEvents(row.events) } : null;
    },

    /** The order behind a tracking page, with its events and its brand's name. */
    async findByTrackingToken(token: string): Promise<{ order: OrderWithEvents; brandName: string } | null> {
      const { rows } = await db.query<
        Record<string, unknown> & { events: EventRow[] | null; brand_name: string }
      >({
        name: 'orders.findByTrackingToken',
        text: `SELECT ${ORDER_SELECT}, (SELECT b.name FROM brands b WHERE b.id = o.brand_id) AS brand_name,
           (SELECT json_agg(json_build_object('status', e.status, 'at', e.at, 'note', e.note) ORDER BY e.id)
              FROM order_events e WHERE e.order_id = o.id) AS events
           FROM orders o WHERE tracking_token = $1`,
        values: [token],
      });
      const row = rows[0];
      return row
        ? { order: { ...toOrder(row), events: toEvents(row.events) }, brandName: row.brand_name }
        : null;
    },

    /**
     * The brand's order in its public detail JSON (`orderDetailJson`), rendered by PostgreSQL: the
     * detail is a hot read, and this spares building an Order and serialising it again. Prepared
     * once per connection; the unique index on tracking_ref makes the plan right for any value.
     */
    async findDetailJson(trackingRef: string, brandId: string, links: OrderLinks): Promise<string | null> {
      const { rows } = await db.query<{ json: string }>({
        name: 'orders.findDetailJson',
        text: `SELECT row_to_json(j)::text AS json FROM orders o
          CROSS JOIN LATERAL (SELECT ${JSON_FIELDS}, ${DETAIL_EVENTS} AS events) j
          WHERE o.tracking_ref = $1 AND o.brand_id = $4`,
        values: [trackingRef, VAT_RATE, links.trackingBaseUrl, brandId],
      });
      return rows[0]?.json ?? null;
    },

    /**
     * A page of orders, newest first (`after`: the internal id of the previous page's last order),
     * each already in its public JSON (`orderJson`) as rendered by PostgreSQL: the list route is the
     * heaviest read, and this spares it parsing some twenty columns and two timestamps per order and
     * serializing them again. A test holds this rendering byte-equal to `orderJson` of `findByRef`.
     *
     * One statement text per combination of filters, each prepared once per connection under its
     * own name: planning a page would cost more than running it, and with no `$n IS NULL OR`
     * branches the prepared plan is right whatever the values (index on status or not). Columns
     * are qualified: the rendering beside them has columns of the same names.
     */
    async listJson(
      brandId: string,
      q: PageQuery,
      links: OrderLinks,
    ): Promise<Array<{ id: number; json: string }>> {
      const values: unknown[] = [brandId, VAT_RATE, links.trackingBaseUrl];
      let where = 'o.brand_id = $1';
      if (q.status !== null) where += ` AND o.status = $${values.push(q.status)}`;
      const prefix = q.referencePrefix ?? null;
      if (prefix !== null) where += referencePrefixSql(prefix, values);
      if (q.after !== null) {
        where += ` AND (o.created_at, o.id) < (SELECT c.created_at, c.id FROM orders c WHERE c.id = $${values.push(q.after)} AND c.brand_id = $1)`;
      }
      const { rows } = await db.query<{ id: number; json: string }>({
        name: `orders.listJson.${q.status !== null ? 's' : ''}${prefix !== null ? 'r' : ''}${q.after !== null ? 'a' : ''}`,
        text: `SELECT o.id, row_to_json(j)::text AS json FROM orders o CROSS JOIN LATERAL (SELECT ${JSON_FIELDS}) j
          WHERE ${where} ORDER BY o.created_at DESC, o.id DESC LIMIT $${values.push(q.limit)}`,
        values,
      });
      return rows;
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
      const values: unknown[] = [brandId, VAT_RATE, links.trackingBaseUrl, q.before];
      let where = 'o.brand_id = $1 AND o.updated_at < $4';
      if (q.status !== null) where += ` AND o.status = $${values.push(q.status)}`;
      if (q.referencePrefix !== null) where += referencePrefixSql(q.referencePrefix, values);
      if (q.since !== null) where += ` AND o.updated_at > $${values.push(q.since)}`;
      if (q.after !== null) {
        where += ` AND (o.updated_at, o.id) > ($${values.push(q.after.at)}::timestamptz, $${values.push(q.after.id)})`;
      }
      const flags = `${q.status !== null ? 's' : ''}${q.referencePrefix !== null ? 'r' : ''}${q.since !== null ? 'f' : ''}${q.after !== null ? 'a' : ''}`;
      const { rows } = await db.query<{ id: number; at: string; json: string }>({
        name: `orders.listChangedJson.${flags}`,
        text: `SELECT o.id, to_char(o.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
            row_to_json(j)::text AS json
          FROM orders o CROSS JOIN LATERAL (SELECT ${JSON_FIELDS}) j
          WHERE ${where} ORDER BY o.updated_at, o.id LIMIT $${values.push(q.limit)}`,
        values,
      });
      return rows;
    },

    /** Moves the order from `from` to `to` (with its event and outbox events); null if it was no longer in `from`. */
    async transition(
      orderId: number,
      change: { from: OrderStatus; to: OrderStatus; note: string | null; at: Date; set?: Partial<NewOrder> },
      events: readonly (OutboxEvent | null)[],
    ): Promise<Order | null> {
      const values: unknown[] = [orderId, change.to, change.from, change.at, change.note];
      const assignments = Object.entries(change.set ?? {})
        .map(([field, value]) => `, ${updatableColumn(field)} = $${values.push(value)}`)
        .join('');
      const outbox = outboxCtes(events, values, 'o');
      const { rows } = await db.query(
        `WITH o AS (
          UPDATE orders SET status = $2, updated_at = $4,
            picked_up_at = CASE WHEN $3 = 'pending' AND $2 <> 'cancelled' THEN $4 ELSE picked_up_at END${assignments}
          WHERE id = $1 AND status = $3
          RETURNING ${ORDER_SELECT}
        ), e AS (
          INSERT INTO order_events (order_id, status, note, at) SELECT id, status, $5, $4 FROM o
        )${outbox ? `, ${outbox.ctes}` : ''}
        SELECT o.*${outbox ? `, ${outbox.select}` : ''} FROM o`,
        values,
      );
      return rows[0] ? toOrder(rows[0]) : null;
    },

    /** Updates details without a status change, if the order is still in `status`; appends an event. */
    async updateDetails(
      orderId: number,
      change: { status: OrderStatus; note: string; at: Date; set: Partial<NewOrder> },
    ): Promise<Order | null> {
      const values: unknown[] = [orderId, change.status, change.at, change.note];
      const assignments = Object.entries(change.set)
        .map(([field, value]) => `, ${updatableColumn(field)} = $${values.push(value)}`)
        .join('');
      const { rows } = await db.query(
        `WITH o AS (
          UPDATE orders SET updated_at = $3${assignments} WHERE id = $1 AND status = $2 RETURNING ${ORDER_SELECT}
        ), e AS (
          INSERT INTO order_events (order_id, status, note, at) SELECT id, status, $4, $3 FROM o
        )
        SELECT * FROM o`,
        values,
      );
      return rows[0] ? toOrder(rows[0]) : null;
    },
  };
}

export type OrdersRepository = ReturnType<typeof ordersRepository>;
