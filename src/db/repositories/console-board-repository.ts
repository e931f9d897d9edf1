import { parisLocalTime } from '../../domain/calendar/paris-time.ts';
import type { BoardReader } from '../../domain/console/board.ts';
import type { Queryable } from '../pool.ts';

/** A delivery stop is done once its order has left the street: delivered, failed, returned, cancelled. */
const DONE = `('delivered', 'failed_attempt', 'returned', 'cancelled')`;

/** The Today board's read model: one statement per panel, each bounded by the day's rows. */
export function consoleBoardRepository(db: Queryable): BoardReader {
  return {
    async board(date, now) {
      const local = parisLocalTime(now);
      const hhmm =
        local.date === date
          ? `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`
          : local.date > date
            ? '24:00'
            : '00:00';
      const [pickups, rounds, couriers, counters] = await Promise.all([
        db.query(
          `SELECT p.id, b.name AS brand_name, p.window_start, p.window_end, p.status,
                  (SELECT count(*)::int FROM orders o WHERE o.pickup_id = p.id) AS parcels,
                  (SELECT count(*)::int FROM orders o
                    WHERE o.tracking_ref = ANY (p.missing_refs) AND o.status = 'pending') AS missing
             FROM pickups p JOIN brands b ON b.id = p.brand_id
            WHERE p.pickup_date = $1
            ORDER BY p.window_start, b.name, p.id`,
          [date],
        ),
        db.query(
          `SELECT r.id, r.name, c.name AS courier_name,
                  count(s.position)::int AS stops,
                  count(*) FILTER (WHERE (s.kind = 'delivery' AND o.status IN ${DONE})
                                      OR (s.kind = 'pickup' AND p.status <> 'planned'))::int AS done,
                  count(*) FILTER (WHERE (s.kind = 'delivery' AND o.status NOT IN ${DONE} AND o.promised_date < $1)
                                      OR (s.kind = 'pickup' AND p.status = 'planned' AND p.window_end < $2))::int AS late
             FROM rounds r
             LEFT JOIN couriers c ON c.id = r.courier_id
             LEFT JOIN round_stops s ON s.round_id = r.id
             LEFT JOIN orders o ON o.id = s.order_id
             LEFT JOIN pickups p ON p.id = s.pickup_id
            WHERE r.round_date = $1
            GROUP BY r.id, r.name, c.name
            ORDER BY r.name`,
          [date, hhmm],
        ),
        db.query(
          `SELECT c.id, c.name, array_agg(r.name ORDER BY r.name) AS rounds,
                  last.received_at, last.code, last.context, last.result
             FROM couriers c
             JOIN rounds r ON r.courier_id = c.id AND r.round_date = $1
             LEFT JOIN LATERAL (
               SELECT received_at, code, context, result FROM scans
                WHERE courier_id = c.id ORDER BY received_at DESC LIMIT 1) last ON true
            GROUP BY c.id, c.name, last.received_at, last.code, last.context, last.result
            ORDER BY c.name`,
          [date],
        ),
        db.query(
          `SELECT
             (SELECT count(*)::int FROM round_stops WHERE round_date = $1 AND kind = 'delivery') AS delivery_stops,
             (SELECT count(*)::int FROM round_stops s JOIN orders o ON o.id = s.order_id
               WHERE s.round_date = $1 AND o.status = 'delivered') AS delivered,
             (SELECT count(*)::int FROM round_stops s JOIN orders o ON o.id = s.order_id
               WHERE s.round_date = $1 AND o.status = 'failed_attempt') AS failed_attempts,
             (SELECT count(*)::int FROM pickups WHERE pickup_date = $1 AND status <> 'planned') AS pickups_closed,
             (SELECT count(*)::int FROM pickups WHERE pickup_date = $1) AS pickups,
             -- Still missing only (as the Exceptions list): one found since (collected) or cancelled is resolved.
             (SELECT count(*)::int FROM pickups p JOIN orders o
                 ON o.tracking_ref = ANY (p.missing_refs) AND o.status = 'pending'
               WHERE p.pickup_date = $1) AS missing,
             (SELECT count(*)::int FROM scans s
               WHERE s.courier_id IN (SELECT courier_id FROM rounds WHERE round_date = $1)
                 AND s.received_at >= ($1::date)::timestamp AT TIME ZONE 'Europe/Paris') AS scans`,
          [date],
        ),
      ]);
      const c = counters.rows[0];
      return {
        date,
        at: now,
        pickups: pickups.rows.map((r) => ({
          id: r.id,
          brandName: r.brand_name,
          windowStart: r.window_start,
          windowEnd: r.window_end,
          status: r.status,
          parcels: r.parcels,
          missing: r.missing,
        })),
        rounds: rounds.rows.map((r) => ({
          id: r.id,
          name: r.name,
          courierName: r.courier_name,
          stops: r.stops,
          done: r.done,
          late: r.late,
        })),
        couriers: couriers.rows.map((r) => ({
          id: r.id,
          name: r.name,
          rounds: r.rounds,
          lastScanAt: r.received_at,
          lastScanCode: r.code,
          lastScanContext: r.context,
          lastScanResult: r.result,
        })),
        counters: {
          deliveryStops: c.delivery_stops,
          delivered: c.delivered,
          failedAttempts: c.failed_attempts,
          pickupsClosed: c.pickups_closed,
          pickups: c.pickups,
          missingParcels: c.missing,
          scans: c.scans,
        },
      };
    },

    async fingerprint(date) {
      const { rows } = await db.query(
        `SELECT concat_ws('|',
           (SELECT max(updated_at) FROM rounds WHERE round_date = $1),
           (SELECT count(*) FROM round_stops WHERE round_date = $1),
           (SELECT max(o.updated_at) FROM round_stops s JOIN orders o ON o.id = s.order_id WHERE s.round_date = $1),
           (SELECT string_agg(status || coalesce(closed_at::text, ''), ',') FROM pickups WHERE pickup_date = $1),
           (SELECT max(last.received_at) FROM rounds r, LATERAL (
              SELECT received_at FROM scans WHERE courier_id = r.courier_id ORDER BY received_at DESC LIMIT 1) last
             WHERE r.round_date = $1)) AS fingerprint`,
        [date],
      );
      return rows[0].fingerprint as string;
    },
  };
}
