import type { Order, OrderEvent, OrderWithEvents } from '../../domain/orders/order.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import { VAT_RATE } from '../../domain/pricing/money.ts';
import type { Queryable } from '../pool.ts';

/** A row for webhook_events, written by the same statement as the change it reports. */
export interface WebhookEventInsert {
  id: string;
  type: 'order.created' | 'order.status_changed';
  data: unknown;
}

const COLUMNS = `id, tracking_ref, brand_id, status, reference, customer_email, amount_cents, pickup_address,
  delivery_address, delivery_postcode, delivery_city, delivery_zone, delivery_recipient, delivery_phone,
  delivery_email, service, unit_type, quantity, unit_weight_grams, price_excl_tax_cents, vat_cents, price_cents,
  promised_date, picked_up_at, created_at, updated_at`;

type OrderRow = {
  id: number;
  tracking_ref: string;
  brand_id: string;
  status: Order['status'];
  reference: string | null;
  customer_email: string;
  amount_cents: number | null;
  pickup_address: string | null;
  delivery_address: string | null;
  delivery_postcode: string | null;
  delivery_city: string | null;
  delivery_zone: Order['deliveryZone'];
  delivery_recipient: string | null;
  delivery_phone: string | null;
  delivery_email: string | null;
  service: Order['service'];
  unit_type: Order['unitType'];
  quantity: number;
  unit_weight_grams: number;
  price_excl_tax_cents: number | null;
  vat_cents: number | null;
  price_cents: number | null;
  promised_date: string | null;
  picked_up_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

/** One page of a brand's orders, newest first, after the order `after` (keyset on created_at, id). */
export interface PageQuery {
  status: OrderStatus | null;
  limit: number;
  after: number | null;
}

// `orderJson` in SQL, field for field and in the same order. Euros are cents / 100 in float8, the
// same IEEE division as in JavaScript; times are toISOString's format (UTC, milliseconds
// truncated, as the driver does when it parses a timestamp). $2 is VAT_RATE.
const isoTime = (column: string) =>
  `to_char(o.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const ORDER_JSON_FIELDS = `o.tracking_ref, o.status, o.reference, o.customer_email,
  o.amount_cents::float8 / 100 AS amount_eur, o.pickup_address, o.delivery_address, o.delivery_postcode,
  o.delivery_city, o.delivery_recipient, o.delivery_phone, o.delivery_email, o.service, o.unit_type,
  o.quantity, o.unit_weight_grams, o.price_cents::float8 / 100 AS price_eur,
  o.price_excl_tax_cents::float8 / 100 AS price_excl_tax_eur,
  CASE WHEN o.price_cents IS NULL THEN NULL ELSE $2::float8 END AS vat_rate, o.promised_date,
  ${isoTime('created_at')} AS created_at, ${isoTime('updated_at')} AS updated_at`;

type EventRow = { status: OrderStatus; at: string; note: string | null };

export function toOrder(r: OrderRow): Order {
  return {
    id: r.id,
    trackingRef: r.tracking_ref,
    brandId: r.brand_id,
    status: r.status,
    reference: r.reference,
    customerEmail: r.customer_email,
    amountCents: r.amount_cents,
    pickupAddress: r.pickup_address,
    deliveryAddress: r.delivery_address,
    deliveryPostcode: r.delivery_postcode,
    deliveryCity: r.delivery_city,
    deliveryZone: r.delivery_zone,
    deliveryRecipient: r.delivery_recipient,
    deliveryPhone: r.delivery_phone,
    deliveryEmail: r.delivery_email,
    service: r.service,
    unitType: r.unit_type,
    quantity: r.quantity,
    unitWeightGrams: r.unit_weight_grams,
    priceExclTaxCents: r.price_excl_tax_cents,
    vatCents: r.vat_cents,
    priceCents: r.price_cents,
    promisedDate: r.promised_date,
    pickedUpAt: r.picked_up_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const toEvents = (rows: EventRow[] | null): OrderEvent[] =>
  (rows ?? []).map((e) => ({ status: e.status, at: new Date(e.at), note: e.note }));

// The change, its event row and its webhook job in one statement: atomic without a transaction
// round trip, and nothing is enqueued unless the change itself happened.
const ENQUEUE = `w AS (
    INSERT INTO webhook_events (id, brand_id, type, data, created_at)
    SELECT $W1, brand_id, $W2, $W3::jsonb, $AT FROM o
    RETURNING id
  ), j AS (
    SELECT graphile_worker.add_job('webhooks_fan_out', json_build_object('v', 1, 'event_id', w.id), max_attempts := 25)
    FROM w
  )`;

function withEnqueue(sql: string, first: number): string {
  return sql
    .replace('$W1', `$${first}`)
    .replace('$W2', `$${first + 1}`)
    .replace('$W3', `$${first + 2}`);
}

export interface NewOrderRow extends Omit<Order, 'id' | 'pickedUpAt' | 'updatedAt'> {}

export function ordersRepository(db: Queryable) {
  return {
    /**
     * Inserts the order with its first event and its `order.created` webhook event + job. Returns
     * null when the tracking ref is already taken (the caller draws another).
     */
    async insert(
      order: NewOrderRow,
      event: { note: string | null },
      webhook: WebhookEventInsert,
    ): Promise<Order | null> {
      const sql = withEnqueue(
        `WITH o AS (
          INSERT INTO orders (tracking_ref, brand_id, status, reference, customer_email, amount_cents, pickup_address,
            delivery_address, delivery_postcode, delivery_city, delivery_zone, delivery_recipient, delivery_phone,
            delivery_email, service, unit_type, quantity, unit_weight_grams, price_excl_tax_cents, vat_cents,
            price_cents, promised_date, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $23)
          ON CONFLICT (tracking_ref) DO NOTHING
          RETURNING ${COLUMNS}
        ), e AS (
          INSERT INTO order_events (order_id, status, note, at) SELECT id, status, $24, created_at FROM o
        ), ${ENQUEUE}
        SELECT o.*, (SELECT count(*) FROM j) AS jobs FROM o`,
        25,
      ).replaceAll('$AT', '$23');
      const { rows } = await db.query<OrderRow>(sql, [
        order.trackingRef,
        order.brandId,
        order.status,
        order.reference,
        order.customerEmail,
        order.amountCents,
        order.pickupAddress,
        order.deliveryAddress,
        order.deliveryPostcode,
        order.deliveryCity,
        order.deliveryZone,
        order.deliveryRecipient,
        order.deliveryPhone,
        order.deliveryEmail,
        order.service,
        order.unitType,
        order.quantity,
        order.unitWeightGrams,
        order.priceExclTaxCents,
        order.vatCents,
        order.priceCents,
        order.promisedDate,
        order.createdAt,
        event.note,
        webhook.id,
        webhook.type,
        JSON.stringify(webhook.data),
      ]);
      return rows[0] ? toOrder(rows[0]) : null;
    },

    /** The order with its events, oldest first; `brandId` null only for the operator. */
    async findByRef(trackingRef: string, brandId: string | null): Promise<OrderWithEvents | null> {
      // Prepared once per connection (by name): the detail is a hot read, and the unique index on
      // tracking_ref makes the prepared plan right whatever the values.
      const { rows } = await db.query<OrderRow & { events: EventRow[] | null }>({
        name: 'orders.findByRef',
        text: `SELECT ${COLUMNS},
           (SELECT json_agg(json_build_object('status', e.status, 'at', e.at, 'note', e.note) ORDER BY e.id)
              FROM order_events e WHERE e.order_id = o.id) AS events
           FROM orders o
          WHERE tracking_ref = $1 AND ($2::text IS NULL OR brand_id = $2)`,
        values: [trackingRef, brandId],
      });
      const row = rows[0];
      return row ? { ...toOrder(row), events: toEvents(row.events) } : null;
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
    async listJson(brandId: string, q: PageQuery): Promise<Array<{ id: number; json: string }>> {
      const values: unknown[] = [brandId, VAT_RATE];
      let where = 'o.brand_id = $1';
      if (q.status !== null) where += ` AND o.status = $${values.push(q.status)}`;
      if (q.after !== null) {
        where += ` AND (o.created_at, o.id) < (SELECT c.created_at, c.id FROM orders c WHERE c.id = $${values.push(q.after)} AND c.brand_id = $1)`;
      }
      const { rows } = await db.query<{ id: number; json: string }>({
        name: `orders.listJson.${q.status !== null ? 's' : ''}${q.after !== null ? 'a' : ''}`,
        text: `SELECT o.id, row_to_json(j)::text AS json FROM orders o CROSS JOIN LATERAL (SELECT ${ORDER_JSON_FIELDS}) j
          WHERE ${where} ORDER BY o.created_at DESC, o.id DESC LIMIT $${values.push(q.limit)}`,
        values,
      });
      return rows;
    },

    async transition(
      orderId: number,
      change: {
        from: OrderStatus;
        to: OrderStatus;
        note: string | null;
        at: Date;
        set?: Partial<NewOrderRow>;
      },
      webhook: WebhookEventInsert,
    ): Promise<Order | null> {
      const extra = Object.entries(change.set ?? {});
      const assignments = extra.map(([field], i) => `, ${snake(field)} = $${9 + i}`).join('');
      const sql = withEnqueue(
        `WITH o AS (
          UPDATE orders SET status = $2, updated_at = $4,
            picked_up_at = CASE WHEN $3 = 'pending' AND $2 <> 'cancelled' THEN $4 ELSE picked_up_at END${assignments}
          WHERE id = $1 AND status = $3
          RETURNING ${COLUMNS}
        ), e AS (
          INSERT INTO order_events (order_id, status, note, at) SELECT id, status, $5, $4 FROM o
        ), ${ENQUEUE}
        SELECT o.*, (SELECT count(*) FROM j) AS jobs FROM o`,
        6,
      ).replaceAll('$AT', '$4');
      const { rows } = await db.query<OrderRow>(sql, [
        orderId,
        change.to,
        change.from,
        change.at,
        change.note,
        webhook.id,
        webhook.type,
        JSON.stringify(webhook.data),
        ...extra.map(([, value]) => value),
      ]);
      return rows[0] ? toOrder(rows[0]) : null;
    },

    /** Updates details without a status change, if the order is still in `status`; appends an event. */
    async updateDetails(
      orderId: number,
      change: { status: OrderStatus; note: string; at: Date; set: Partial<NewOrderRow> },
    ): Promise<Order | null> {
      const entries = Object.entries(change.set);
      const assignments = entries.map(([field], i) => `, ${snake(field)} = $${5 + i}`).join('');
      const { rows } = await db.query<OrderRow>(
        `WITH o AS (
          UPDATE orders SET updated_at = $3${assignments} WHERE id = $1 AND status = $2 RETURNING ${COLUMNS}
        ), e AS (
          INSERT INTO order_events (order_id, status, note, at) SELECT id, status, $4, $3 FROM o
        )
        SELECT * FROM o`,
        [orderId, change.status, change.at, change.note, ...entries.map(([, value]) => value)],
      );
      return rows[0] ? toOrder(rows[0]) : null;
    },
  };
}

export type OrdersRepository = ReturnType<typeof ordersRepository>;

const UPDATABLE = new Set([
  'reference',
  'pickupAddress',
  'deliveryAddress',
  'deliveryPostcode',
  'deliveryCity',
  'deliveryZone',
  'deliveryRecipient',
  'deliveryPhone',
  'deliveryEmail',
  'priceExclTaxCents',
  'vatCents',
  'priceCents',
  'promisedDate',
]);

/** camelCase field → column, only for fields an update may set (never from user input directly). */
function snake(field: string): string {
  if (!UPDATABLE.has(field)) throw new Error(`field ${field} cannot be updated`);
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
