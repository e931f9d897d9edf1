import type { PricingZone } from '../../domain/coverage/zones.ts';
import type { RoundDelivery, RoundLeg } from '../../domain/emissions/allocation.ts';
import { isVehicleKind } from '../../domain/emissions/emission-factors.ts';
import type { RoundDistances } from '../../domain/emissions/ports.ts';
import type { ServiceCode } from '../../domain/pricing/services.ts';
import type { Queryable } from '../pool.ts';

interface LegRow {
  round_id: string;
  date: string;
  vehicle: string | null;
  distance_m: number | null;
  distance_source: 'driven' | 'planned' | null;
  hub_lat: number | null;
  hub_lng: number | null;
  order_id: string;
  lat: number | null;
  lng: number | null;
  parcels: number;
  zone: PricingZone | null;
  service: ServiceCode;
}

/**
 * The round's own distance and vehicle kind: the distance driven once the round finished (migration
 * 0055), else what the optimised plan stored (docs/planning.md); null for a sort-code round (its
 * share then falls back on the default values, data level 1).
 */
const ROUND_DISTANCE = 'coalesce(r.driven_distance_m, r.planned_distance_m)';
const DISTANCE_SOURCE = `CASE WHEN r.driven_distance_m IS NOT NULL THEN 'driven'
  WHEN r.planned_distance_m IS NOT NULL THEN 'planned' END`;
const ROUND_VEHICLE = 'v.kind';

/** RoundDistances on the rounds' tables: every round the order was on, with all its deliveries. */
export function roundDistancesRepository(db: Queryable): RoundDistances {
  return {
    async roundsOfOrder(orderId) {
      const { rows } = await db.query<LegRow>(
        `SELECT r.id AS round_id, to_char(r.round_date, 'YYYY-MM-DD') AS date,
            ${ROUND_VEHICLE} AS vehicle, ${ROUND_DISTANCE} AS distance_m,
            ${DISTANCE_SOURCE} AS distance_source,
            h.lat AS hub_lat, h.lng AS hub_lng, o.delivery_lat AS lat, o.delivery_lng AS lng,
            o.id::text AS order_id, o.quantity AS parcels, o.delivery_zone AS zone, o.service
          FROM round_stops mine
          JOIN rounds r ON r.id = mine.round_id
          LEFT JOIN vehicles v ON v.id = r.vehicle_id
          LEFT JOIN hubs h ON h.id = v.hub_id
          JOIN round_stops s ON s.round_id = r.id AND s.kind = 'delivery'
          JOIN orders o ON o.id = s.order_id AND o.status <> 'cancelled'
          WHERE mine.order_id = $1
          ORDER BY r.round_date, r.id, s.position`,
        [orderId],
      );
      const legs: RoundLeg[] = [];
      const byRound = new Map<string, RoundLeg & { deliveries: RoundDelivery[] }>();
      for (const row of rows) {
        let current = byRound.get(row.round_id);
        if (!current) {
          current = {
            roundId: row.round_id,
            date: row.date,
            vehicle: isVehicleKind(row.vehicle) ? row.vehicle : null,
            distanceM: row.distance_m,
            distanceSource: row.distance_source,
            hub: row.hub_lat === null || row.hub_lng === null ? null : { lat: row.hub_lat, lng: row.hub_lng },
            deliveries: [],
          };
          byRound.set(row.round_id, current);
          legs.push(current);
        }
        current.deliveries.push({
          orderId: row.order_id,
          parcels: row.parcels,
          zone: row.zone,
          service: row.service,
          point: row.lat === null || row.lng === null ? null : { lat: row.lat, lng: row.lng },
        });
      }
      return legs;
    },
  };
}
