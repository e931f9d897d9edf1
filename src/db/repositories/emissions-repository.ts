import type { DataLevel } from '../../domain/emissions/allocation.ts';
import type {
  EmissionStore,
  EmittingOrder,
  StatementMonth,
  StatementRow,
} from '../../domain/emissions/ports.ts';
import type { Queryable } from '../pool.ts';
import { storeJsonSql } from './order-sql.ts';

/** When an order was delivered or returned: its figure's time, else (before migration 0053) its last change. */
const EMITTED_AT = 'coalesce(o.co2e_at, o.updated_at)';

// A recompute's new values, as the stored JSON is rendered from them in the same UPDATE.
const NEW_VALUES: Record<string, string> = {
  co2e_grams: '$2::integer',
  co2e_data_level: '$3::smallint',
  co2e_method: '$4::text',
  co2e_vehicle: '$5::text',
  co2e_distance_m: '$6::integer',
  co2e_at: '$7::timestamptz',
};

/** The orders' greenhouse-gas figures (migration 0053). */
export function emissionsRepository(db: Queryable): EmissionStore {
  return {
    async emittingOrders(start, end, afterId, limit) {
      // A month's recompute is an operator's occasional command: it reads the month's delivered
      // orders through the status, not an index of its own.
      const { rows } = await db.query<EmittingOrder>(
        `SELECT o.id::text AS id, o.status, o.delivery_zone AS zone, o.service, ${EMITTED_AT} AS at
          FROM orders o
          WHERE o.status IN ('delivered', 'returned') AND ${EMITTED_AT} >= $1 AND ${EMITTED_AT} < $2
            AND ($3::bigint IS NULL OR o.id > $3::bigint)
          ORDER BY o.id LIMIT $4`,
        [start, end, afterId, limit],
      );
      return rows;
    },

    async record(orderId, e) {
      const assignments = Object.entries(NEW_VALUES)
        .map(([column, param]) => `${column} = ${param}`)
        .join(', ');
      await db.query(
        `UPDATE orders o SET ${assignments}, ${storeJsonSql((column) => NEW_VALUES[column] ?? `o.${column}`)}
          WHERE o.id = $1`,
        [orderId, e.grams, e.dataLevel, e.method, e.vehicle, e.distanceM, e.at],
      );
    },

    async statement(brandId, start, end) {
      const { rows } = await db.query<{
        vehicle: string;
        data_level: DataLevel;
        orders: number;
        parcels: number;
        distance_m: string;
        grams: string;
      }>(
        `SELECT o.co2e_vehicle AS vehicle, o.co2e_data_level AS data_level, count(*)::integer AS orders,
            sum(o.quantity)::integer AS parcels, sum(o.co2e_distance_m) AS distance_m, sum(o.co2e_grams) AS grams
          FROM orders o
          WHERE o.brand_id = $1 AND o.co2e_at >= $2 AND o.co2e_at < $3 AND o.co2e_grams IS NOT NULL
          GROUP BY 1, 2 ORDER BY 1, 2`,
        [brandId, start, end],
      );
      return rows.map(
        (r): StatementRow => ({
          vehicle: r.vehicle,
          dataLevel: r.data_level,
          orders: r.orders,
          parcels: r.parcels,
          distanceM: Number(r.distance_m),
          grams: Number(r.grams),
        }),
      );
    },

    async months(brandId, limit) {
      // The month of the Paris wall clock, as the statement's bounds (billing-period.ts) are.
      const { rows } = await db.query<{ period: string; orders: number; grams: string }>(
        `SELECT to_char(o.co2e_at AT TIME ZONE 'Europe/Paris', 'YYYY-MM') AS period,
            count(*)::integer AS orders, sum(o.co2e_grams) AS grams
          FROM orders o
          WHERE o.brand_id = $1 AND o.co2e_at IS NOT NULL AND o.co2e_grams IS NOT NULL
          GROUP BY 1 ORDER BY 1 DESC LIMIT $2`,
        [brandId, limit],
      );
      return rows.map(
        (r): StatementMonth => ({ period: r.period, orders: r.orders, grams: Number(r.grams) }),
      );
    },
  };
}
