import type { DayMapReader } from '../../domain/console/day-map.ts';
import type { Queryable } from '../pool.ts';

/** A delivery stop is done once its order has left the street (as on the board). */
const DONE = `('delivered', 'failed_attempt', 'returned', 'cancelled')`;

/**
 * The console map's read model: three statements bounded by the day's rounds, stops and pickups.
 * A courier's position is read only while they share it, and only from the day's rounds: stopping
 * sharing deletes the positions (domain/arrivals), and the consent is checked here again.
 */
export function consoleMapRepository(db: Queryable): DayMapReader {
  return {
    async dayMap(date) {
      const [rounds, stops, couriers] = await Promise.all([
        db.query({
          name: 'consoleMap.rounds',
          text: `SELECT r.id, r.name, c.name AS courier_name, count(s.position)::int AS stops,
                  count(*) FILTER (WHERE (s.kind = 'delivery' AND o.status IN ${DONE})
                                      OR (s.kind = 'pickup' AND p.status <> 'planned'))::int AS done
             FROM rounds r
             LEFT JOIN couriers c ON c.id = r.courier_id
             LEFT JOIN round_stops s ON s.round_id = r.id
             LEFT JOIN orders o ON o.id = s.order_id
             LEFT JOIN pickups p ON p.id = s.pickup_id
            WHERE r.round_date = $1
            GROUP BY r.id, r.name, c.name
            ORDER BY r.name, r.id`,
          values: [date],
        }),
        db.query({
          name: 'consoleMap.stops',
          text: `SELECT * FROM (
             SELECT s.round_id, r.name AS round_name, s.position, s.kind,
                    coalesce(o.tracking_ref, s.pickup_id) AS ref, b.id AS brand_id, b.name AS brand_name,
                    coalesce(o.status, p.status) AS status,
                    CASE WHEN s.kind = 'delivery' THEN o.status IN ${DONE} ELSE p.status <> 'planned' END AS done,
                    o.delivery_lat AS lat, o.delivery_lng AS lng, o.delivery_location_precision AS precision,
                    p.pickup_address, p.window_start
               FROM round_stops s
               JOIN rounds r ON r.id = s.round_id
               LEFT JOIN orders o ON o.id = s.order_id
               LEFT JOIN pickups p ON p.id = s.pickup_id
               JOIN brands b ON b.id = coalesce(o.brand_id, p.brand_id)
              WHERE s.round_date = $1
             UNION ALL
             SELECT NULL, NULL, NULL, 'pickup', p.id, b.id, b.name, p.status, p.status <> 'planned',
                    NULL, NULL, NULL, p.pickup_address, p.window_start
               FROM pickups p JOIN brands b ON b.id = p.brand_id
              WHERE p.pickup_date = $1
                AND NOT EXISTS (SELECT 1 FROM round_stops s WHERE s.round_date = $1 AND s.pickup_id = p.id)
           ) day
           ORDER BY round_name NULLS LAST, round_id, position, window_start, brand_name, ref`,
          values: [date],
        }),
        db.query({
          name: 'consoleMap.couriers',
          text: `SELECT c.id, c.name, last.round_id, last.lat, last.lng, last.accuracy_m, last.recorded_at
             FROM couriers c
             JOIN LATERAL (
               SELECT p.round_id, p.lat, p.lng, p.accuracy_m, p.recorded_at FROM courier_positions p
                WHERE p.courier_id = c.id AND p.recorded_at >= c.shares_position_since
                  AND p.round_id IN (SELECT id FROM rounds WHERE round_date = $1)
                ORDER BY p.recorded_at DESC LIMIT 1) last ON true
            WHERE c.shares_position_since IS NOT NULL
              AND c.id IN (SELECT courier_id FROM rounds WHERE round_date = $1 AND courier_id IS NOT NULL)
            ORDER BY c.name, c.id`,
          values: [date],
        }),
      ]);
      return {
        rounds: rounds.rows.map((r) => ({
          id: r.id,
          name: r.name,
          courierName: r.courier_name,
          stops: r.stops,
          done: r.done,
        })),
        stops: stops.rows.map((s) => ({
          kind: s.kind,
          ref: s.ref,
          roundId: s.round_id,
          position: s.position,
          brandId: s.brand_id,
          brandName: s.brand_name,
          status: s.status,
          done: s.done,
          point: s.lat !== null && s.lng !== null ? { lat: s.lat, lng: s.lng } : null,
          precision: s.precision,
          pickupAddress: s.pickup_address,
        })),
        couriers: couriers.rows.map((c) => ({
          id: c.id,
          name: c.name,
          roundId: c.round_id,
          point: { lat: c.lat, lng: c.lng },
          accuracyM: c.accuracy_m,
          at: c.recorded_at,
        })),
      };
    },
  };
}
