import { TERMINAL_STATUSES } from '../../domain/orders/state-machine.ts';
import type {
  ErasableOrder,
  ErasedCounts,
  RecipientDataStore,
  RecipientMatch,
} from '../../domain/privacy/ports.ts';
import type { Queryable } from '../pool.ts';
import { storeJsonSql } from './order-sql.ts';

/**
 * The ended statuses as the partial index orders_anonymise_due_idx (migration 0041) names them:
 * the query must say the same for the planner to use it.
 */
export const ENDED_SQL = `status IN (${TERMINAL_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/** The order's proof files still stored (its attempts' keys), beside its columns. */
const ERASABLE = `o.id, o.tracking_ref AS "trackingRef", o.brand_id AS "brandId", o.status,
  coalesce((SELECT array_agg(k ORDER BY k) FROM delivery_attempts a, unnest(ARRAY[a.photo_key, a.signature_key]) k
             WHERE a.order_id = o.id AND k IS NOT NULL), '{}') AS "fileKeys"`;

/** Orders read per statement when an erasure looks for a recipient: a range of ids, by the primary key. */
const SCAN_SPAN = 50_000;

/** What an anonymised order's columns become; the others keep their values. */
const ERASED: Record<string, string> = {
  customer_email: 'NULL::text',
  delivery_address: 'NULL::text',
  delivery_recipient: 'NULL::text',
  delivery_phone: 'NULL::text',
  delivery_email: 'NULL::text',
  // Where the recipient lives is as personal as the address (docs/places.md, "Privacy"); the flags'
  // messages quote the geocoder's reading of it.
  delivery_lat: 'NULL::order_latitude',
  delivery_lng: 'NULL::order_longitude',
  delivery_location_precision: 'NULL::order_location_precision',
  delivery_location_source: 'NULL::order_location_source',
  address_warnings: `'[]'::jsonb`,
  address_check_due_at: 'NULL::timestamptz',
  updated_at: '$2::timestamptz',
};

/**
 * The history without its notes (any of them may be an operator's free text), each entry as
 * orderEventJsonText writes it (row_to_json's separators are JSON.stringify's), and one entry more
 * saying what happened.
 */
const HISTORY_SQL = `(
  SELECT ('[' || string_agg(row_to_json((SELECT r FROM (SELECT h.e->>'status' AS status, h.e->>'at' AS at,
            NULL::text AS note) r))::text, ',' ORDER BY h.n)
          || ',' || row_to_json((SELECT r FROM (SELECT o.status::text AS status, $3::text AS at, $4::text AS note) r))::text
          || ']')::json
    FROM json_array_elements(o.history) WITH ORDINALITY AS h(e, n))`;

export function recipientDataRepository(db: Queryable): RecipientDataStore {
  return {
    async dueForAnonymisation(cutoff, limit): Promise<ErasableOrder[]> {
      const { rows } = await db.query<ErasableOrder>({
        name: 'recipientData.due',
        text: `SELECT ${ERASABLE} FROM orders o
          WHERE o.anonymised_at IS NULL AND o.${ENDED_SQL} AND o.updated_at < $1
          ORDER BY o.updated_at LIMIT $2`,
        values: [cutoff, limit],
      });
      return rows;
    },

    /**
     * No index holds the orders by e-mail or phone (each would cost every order created an entry
     * for a request made a few times a month): the table is read in ranges of ids, each its own
     * short statement, so no statement outlasts DATABASE_STATEMENT_TIMEOUT_MS however many orders.
     */
    async ordersOf(match: RecipientMatch): Promise<ErasableOrder[]> {
      const { rows: bounds } = await db.query<{ max: number | null }>('SELECT max(id) AS max FROM orders');
      const max = bounds[0]?.max ?? 0;
      const [condition, value] =
        'email' in match
          ? ['(lower(o.customer_email) = $3 OR lower(o.delivery_email) = $3)', match.email.toLowerCase()]
          : ['o.delivery_phone = $3', match.phone];
      const found: ErasableOrder[] = [];
      for (let from = 0; from < max; from += SCAN_SPAN) {
        const { rows } = await db.query<ErasableOrder>({
          name: `recipientData.ordersOf.${'email' in match ? 'email' : 'phone'}`,
          text: `SELECT ${ERASABLE} FROM orders o
            WHERE o.id > $1 AND o.id <= $2 AND o.anonymised_at IS NULL AND ${condition} ORDER BY o.id`,
          values: [from, from + SCAN_SPAN, value],
        });
        found.push(...rows);
      }
      return found;
    },

    async anonymise(orderIds, change): Promise<ErasedCounts> {
      const request = change.onRequest
        ? `, inbox AS (
            UPDATE connector_inbox i SET payload = NULL
              FROM connector_orders co JOIN connector_connections c ON c.id = co.connection_id
             WHERE co.order_id IN (SELECT id FROM o) AND i.platform = c.platform AND i.shop = c.shop
               AND i.external_order_id = co.external_id AND i.payload IS NOT NULL
            RETURNING 1
          ), idempotency AS (
            -- The stored answer quotes the order's JSON; a retry with that key, a day at most after
            -- the order was created, would create it again.
            DELETE FROM idempotency_keys k USING o
             WHERE k.brand_id = o.brand_id AND strpos(k.response_body::text, '"' || o.tracking_ref || '"') > 0
            RETURNING 1
          )`
        : ', inbox AS (SELECT 1 WHERE false), idempotency AS (SELECT 1 WHERE false)';
      const { rows } = await db.query<ErasedCounts>({
        name: `recipientData.anonymise.${change.onRequest ? 'request' : 'retention'}.${change.skipLocked}`,
        text: `WITH due AS (
            SELECT id FROM orders WHERE id = ANY($1::bigint[]) AND anonymised_at IS NULL AND ${ENDED_SQL}
            FOR UPDATE${change.skipLocked ? ' SKIP LOCKED' : ''}
          ), o AS (
            UPDATE orders o SET customer_email = NULL, delivery_address = NULL, delivery_recipient = NULL,
                delivery_phone = NULL, delivery_email = NULL, delivery_lat = NULL, delivery_lng = NULL,
                delivery_location_precision = NULL, delivery_location_source = NULL,
                address_warnings = '[]', address_check_due_at = NULL, anonymised_at = $2, updated_at = $2,
                history = ${HISTORY_SQL},
                ${storeJsonSql((column) => ERASED[column] ?? `o.${column}`)}
              FROM due WHERE o.id = due.id
            RETURNING o.id, o.brand_id, o.tracking_ref
          ), attempts AS (
            -- Only the keys whose files were deleted first: a file stored meanwhile keeps its key
            -- (the proof files' own retention erases it).
            UPDATE delivery_attempts a SET received_by = NULL, latitude = NULL, longitude = NULL,
                photo_key = CASE WHEN a.photo_key = ANY($5::text[]) THEN NULL ELSE a.photo_key END,
                signature_key = CASE WHEN a.signature_key = ANY($5::text[]) THEN NULL ELSE a.signature_key END,
                files_erased_at = CASE
                  WHEN (a.photo_key IS NOT NULL OR a.signature_key IS NOT NULL)
                   AND (a.photo_key IS NULL OR a.photo_key = ANY($5::text[]))
                   AND (a.signature_key IS NULL OR a.signature_key = ANY($5::text[])) THEN $2
                  ELSE a.files_erased_at END
              WHERE a.order_id IN (SELECT id FROM o)
            RETURNING 1
          ), notifications AS (
            DELETE FROM recipient_notifications WHERE order_id IN (SELECT id FROM o) RETURNING 1
          ), codes AS (
            DELETE FROM recipient_codes WHERE order_id IN (SELECT id FROM o) RETURNING 1
          ), choices AS (
            DELETE FROM recipient_choices WHERE order_id IN (SELECT id FROM o) RETURNING 1
          ), problems AS (
            DELETE FROM connector_problems p USING connector_orders co
             WHERE co.order_id IN (SELECT id FROM o)
               AND p.connection_id = co.connection_id AND p.external_id = co.external_id
            RETURNING 1
          )${request}
          SELECT coalesce((SELECT array_agg(tracking_ref::text ORDER BY tracking_ref) FROM o), '{}') AS orders,
                 (SELECT count(*) FROM attempts)::int AS attempts,
                 (SELECT count(*) FROM notifications)::int AS notifications,
                 (SELECT count(*) FROM codes)::int AS codes,
                 (SELECT count(*) FROM choices)::int AS choices,
                 (SELECT count(*) FROM problems)::int AS problems,
                 (SELECT count(*) FROM inbox)::int AS "inboxPayloads",
                 (SELECT count(*) FROM idempotency)::int AS "idempotencyKeys"`,
        values: [orderIds, change.at, change.at.toISOString(), change.note, change.erasedKeys],
      });
      return rows[0]!;
    },
  };
}
