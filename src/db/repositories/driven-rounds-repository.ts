import type { DrivenRounds, EmittingOrder, FinishedRound } from '../../domain/emissions/ports.ts';
import { isVehicleKind } from '../../domain/fleet/fleet.ts';
import type { Queryable } from '../pool.ts';

/**
 * A stop's outcome on its round's day (Paris): the first delivery, failed attempt or return in the
 * order's history (`orders.history`, migration 0023), the courier's scan time for a scanned one.
 */
const OUTCOME_AT = `(SELECT min((h->>'at')::timestamptz) FROM json_array_elements(o.history) h
    WHERE h->>'status' IN ('delivered', 'failed_attempt', 'returned')
      AND ((h->>'at')::timestamptz AT TIME ZONE 'Europe/Paris')::date = s.round_date)`;

interface FinishedRow {
  round_id: string;
  kind: string;
  hub_lat: number;
  hub_lng: number;
  position: number;
  order_id: string;
  lat: number | null;
  lng: number | null;
  at: Date;
}

/** DrivenRounds on rounds, round_stops and the orders' events (migration 0055). */
export function drivenRoundsRepository(db: Queryable): DrivenRounds {
  return {
    async finishedWithoutDistance(since, until, limit) {
      // Finished: a delivery stop not cancelled and still without its outcome that day is none.
      const { rows } = await db.query<FinishedRow>(
        `WITH finished AS (
           SELECT r.id, v.kind, h.lat AS hub_lat, h.lng AS hub_lng
             FROM rounds r
             JOIN vehicles v ON v.id = r.vehicle_id
             JOIN hubs h ON h.id = v.hub_id
            WHERE r.driven_distance_m IS NULL AND r.vehicle_id IS NOT NULL
              AND r.round_date BETWEEN $1::date AND $2::date
              AND EXISTS (SELECT 1 FROM round_stops s WHERE s.round_id = r.id AND s.kind = 'delivery')
              AND NOT EXISTS (
                SELECT 1 FROM round_stops s JOIN orders o ON o.id = s.order_id
                 WHERE s.round_id = r.id AND s.kind = 'delivery' AND o.status <> 'cancelled'
                   AND ${OUTCOME_AT} IS NULL)
            ORDER BY r.round_date, r.id
            LIMIT $3)
         SELECT f.id AS round_id, f.kind, f.hub_lat, f.hub_lng, s.position, s.order_id::text AS order_id,
                o.delivery_lat AS lat, o.delivery_lng AS lng, ${OUTCOME_AT} AS at
           FROM finished f
           JOIN round_stops s ON s.round_id = f.id AND s.kind = 'delivery'
           JOIN orders o ON o.id = s.order_id AND o.status <> 'cancelled'
          ORDER BY f.id, at, s.position`,
        [since, until, limit],
      );
      const rounds = new Map<string, FinishedRound>();
      for (const row of rows) {
        if (!isVehicleKind(row.kind)) continue;
        let round = rounds.get(row.round_id);
        if (!round) {
          round = {
            roundId: row.round_id,
            vehicle: row.kind,
            hub: { lat: row.hub_lat, lng: row.hub_lng },
            stops: [],
          };
          rounds.set(row.round_id, round);
        }
        round.stops.push({
          position: row.position,
          orderId: row.order_id,
          point: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
          at: row.at,
        });
      }
      return [...rounds.values()];
    },

    async recordDriven(roundId, drivenM, legs, at) {
      // One statement: the round's distance only if none yet, and its stops' legs with it.
      const { rows } = await db.query<{ id: string }>(
        `WITH round AS (
           UPDATE rounds SET driven_distance_m = $2, driven_at = $3
            WHERE id = $1 AND driven_distance_m IS NULL RETURNING id),
         legs AS (
           UPDATE round_stops s SET driven_position = l.driven_position, driven_leg_m = l.leg_m
             FROM round, jsonb_to_recordset($4::jsonb) AS l(position integer, driven_position integer, leg_m integer)
            WHERE s.round_id = round.id AND s.position = l.position RETURNING 1)
         SELECT id FROM round`,
        [
          roundId,
          drivenM,
          at,
          JSON.stringify(
            legs.map((l) => ({ position: l.position, driven_position: l.drivenPosition, leg_m: l.legM })),
          ),
        ],
      );
      return rows.length === 1;
    },

    async emittingOrdersOf(roundId) {
      const { rows } = await db.query<EmittingOrder>(
        `SELECT o.id::text AS id, o.status, o.delivery_zone AS zone, o.service,
                coalesce(o.co2e_at, o.updated_at) AS at
           FROM round_stops s JOIN orders o ON o.id = s.order_id
          WHERE s.round_id = $1 AND s.kind = 'delivery' AND o.status IN ('delivered', 'returned')
          ORDER BY o.id`,
        [roundId],
      );
      return rows;
    },
  };
}
