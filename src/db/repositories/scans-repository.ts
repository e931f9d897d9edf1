import type { RowWithMove } from '../../domain/orders/ports.ts';
import type { NewAttempt, RoundOf, ScanResult, ScanRow, ScanStore } from '../../domain/scans/ports.ts';
import type { Queryable } from '../pool.ts';

/** Scans and door attempts (migrations 0033, 0034), and the rounds they are checked against (0032). */
export function scansRepository(db: Queryable): ScanStore {
  return {
    async results(ids) {
      if (ids.length === 0) return [];
      const { rows } = await db.query<{
        id: string;
        result: ScanResult['result'];
        tracking_ref: string | null;
        status_after: ScanResult['status'];
        problem: NonNullable<ScanResult['problem']>['code'] | null;
        message: string | null;
      }>({
        name: 'scans.results',
        text: `SELECT s.id, s.result, o.tracking_ref, s.status_after, s.problem, s.message
          FROM scans s LEFT JOIN orders o ON o.id = s.order_id WHERE s.id = ANY($1::uuid[])`,
        values: [ids],
      });
      return rows.map((r) => ({
        id: r.id,
        result: r.result,
        tracking_ref: r.tracking_ref,
        status: r.status_after,
        problem: r.problem ? { code: r.problem, message: r.message ?? '' } : null,
      }));
    },

    async record(row: ScanRow) {
      const { rowCount } = await db.query({
        name: 'scans.record',
        text: `INSERT INTO scans (id, courier_id, round_id, context, code, order_id, outcome, reason, happened_at,
            result, status_after, problem, message)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
          ON CONFLICT (id) DO NOTHING`,
        values: scanValues(row),
      });
      return rowCount === 1;
    },

    scanWithMove: (row: ScanRow): RowWithMove => ({
      table: 'scans',
      columns: SCAN_COLUMNS,
      values: scanValues(row),
    }),

    attemptWithMove: (a: NewAttempt): RowWithMove => ({
      table: 'delivery_attempts',
      columns: ATTEMPT_COLUMNS,
      values: [
        a.id,
        a.orderId,
        a.scanId,
        a.courierId,
        a.outcome,
        a.reason,
        a.happenedAt,
        a.receivedBy,
        a.location?.latitude ?? null,
        a.location?.longitude ?? null,
        a.photoKey,
        a.signatureKey,
      ],
    }),

    async roundsOf(asked) {
      const found = new Map<string, RoundOf>();
      if (asked.length === 0) return found;
      // A delivery stop wins over its pickup's stop when both are on rounds that day.
      const { rows } = await db.query<{
        ref: string;
        day: string;
        round_id: string;
        courier_id: string | null;
      }>({
        name: 'scans.roundsOf',
        text: `SELECT DISTINCT ON (q.ref, q.day) q.ref, q.day, r.id AS round_id, r.courier_id
          FROM unnest($1::text[], $2::text[]) AS q (ref, day)
          JOIN orders o ON o.tracking_ref = q.ref
          JOIN round_stops s ON s.round_date = q.day::date AND (s.order_id = o.id OR s.pickup_id = o.pickup_id)
          JOIN rounds r ON r.id = s.round_id
          ORDER BY q.ref, q.day, s.kind = 'delivery' DESC`,
        values: [asked.map((a) => a.ref), asked.map((a) => a.day)],
      });
      for (const r of rows) found.set(`${r.ref}|${r.day}`, { roundId: r.round_id, courierId: r.courier_id });
      return found;
    },

    async courierHasPickup(courierId, pickupId) {
      const { rows } = await db.query(
        `SELECT 1 FROM round_stops s JOIN rounds r ON r.id = s.round_id
          WHERE s.pickup_id = $2 AND r.courier_id = $1 LIMIT 1`,
        [courierId, pickupId],
      );
      return rows.length > 0;
    },

    async pickupScannedRefs(pickupId) {
      const { rows } = await db.query<{ tracking_ref: string }>(
        `SELECT DISTINCT o.tracking_ref FROM orders o
          WHERE o.pickup_id = $1 AND o.status <> 'cancelled'
            AND EXISTS (SELECT 1 FROM scans s WHERE s.order_id = o.id AND s.context = 'pickup' AND s.result = 'applied')
          ORDER BY o.tracking_ref`,
        [pickupId],
      );
      return rows.map((r) => r.tracking_ref);
    },

    async courierExists(courierId) {
      const { rows } = await db.query('SELECT 1 FROM couriers WHERE id = $1', [courierId]);
      return rows.length > 0;
    },
  };
}

/** The scan's row as written with the order's move (RowWithMove): columns and their types. */
const SCAN_COLUMNS = [
  { name: 'id', type: 'uuid' },
  { name: 'courier_id', type: 'text' },
  { name: 'round_id', type: 'text' },
  { name: 'context', type: 'text' },
  { name: 'code', type: 'text' },
  { name: 'order_id', type: 'bigint' },
  { name: 'outcome', type: 'text' },
  { name: 'reason', type: 'text' },
  { name: 'happened_at', type: 'timestamptz' },
  { name: 'result', type: 'text' },
  { name: 'status_after', type: 'text' },
  { name: 'problem', type: 'text' },
  { name: 'message', type: 'text' },
] as const;

const ATTEMPT_COLUMNS = [
  { name: 'id', type: 'text' },
  { name: 'order_id', type: 'bigint' },
  { name: 'scan_id', type: 'uuid' },
  { name: 'courier_id', type: 'text' },
  { name: 'outcome', type: 'text' },
  { name: 'reason', type: 'text' },
  { name: 'happened_at', type: 'timestamptz' },
  { name: 'received_by', type: 'text' },
  { name: 'latitude', type: 'numeric' },
  { name: 'longitude', type: 'numeric' },
  { name: 'photo_key', type: 'text' },
  { name: 'signature_key', type: 'text' },
] as const;

/** A scan's values in SCAN_COLUMNS' order (its own INSERT and the one written with a move). */
const scanValues = (row: ScanRow): unknown[] => [
  row.id,
  row.courierId,
  row.roundId,
  row.context,
  row.code,
  row.orderId,
  row.outcome,
  row.reason,
  row.happenedAt,
  row.result,
  row.statusAfter,
  row.problem,
  row.message,
];
