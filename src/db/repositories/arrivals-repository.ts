import type { ArrivalStore, RoundFacts, StoredArrival } from '../../domain/arrivals/ports.ts';
import { isVehicleKind } from '../../domain/fleet/fleet.ts';
import { keyedOutboxCtes } from '../outbox-sql.ts';
import type { Queryable } from '../pool.ts';

/** The Paris day of a round as two instants: scans of that day only count for it. */
const DAY_START = `(r.round_date::timestamp AT TIME ZONE 'Europe/Paris')`;
const DAY_END = `((r.round_date + 1)::timestamp AT TIME ZONE 'Europe/Paris')`;

interface ArrivalRow {
  order_id: string;
  round_id: string;
  eta: Date;
  window_start: Date;
  window_end: Date;
  stops_before: number;
  announced_at: Date;
  estimated_at: Date;
}

const toArrival = (r: ArrivalRow): StoredArrival => ({
  orderId: String(r.order_id),
  roundId: r.round_id,
  eta: r.eta,
  windowStart: r.window_start,
  windowEnd: r.window_end,
  stopsBefore: r.stops_before,
  announcedAt: r.announced_at,
  estimatedAt: r.estimated_at,
});

/** Arrival times and shared positions (migration 0054). */
export function arrivalsRepository(db: Queryable): ArrivalStore {
  return {
    async roundFacts(roundId): Promise<RoundFacts | null> {
      const { rows } = await db.query<{
        id: string;
        date: string;
        courier_id: string | null;
        departure: Date | null;
        vehicle_kind: string | null;
        hub_lat: number | null;
        hub_lng: number | null;
      }>({
        name: 'arrivals.round',
        text: `SELECT r.id, r.round_date::text AS date, r.courier_id,
            v.kind AS vehicle_kind, h.lat AS hub_lat, h.lng AS hub_lng,
            (SELECT max(sc.happened_at) FROM round_stops s JOIN scans sc ON sc.order_id = s.order_id
              WHERE s.round_id = r.id AND s.kind = 'delivery' AND sc.context = 'loading'
                AND sc.result = 'applied' AND sc.happened_at >= ${DAY_START} AND sc.happened_at < ${DAY_END}
            ) AS departure
          FROM rounds r LEFT JOIN vehicles v ON v.id = r.vehicle_id LEFT JOIN hubs h ON h.id = v.hub_id
          WHERE r.id = $1`,
        values: [roundId],
      });
      const round = rows[0];
      if (!round) return null;
      const stops = await db.query<{
        order_id: string;
        brand_id: string;
        tracking_ref: string;
        lat: number | null;
        lng: number | null;
        status: string;
        done_at: Date | null;
      }>({
        name: 'arrivals.stops',
        text: `SELECT o.id AS order_id, o.brand_id, o.tracking_ref, o.delivery_lat AS lat,
            o.delivery_lng AS lng, o.status,
            (SELECT max(d.happened_at) FROM scans d
              WHERE d.order_id = o.id AND d.context = 'door' AND d.result = 'applied'
                AND d.happened_at >= ${DAY_START} AND d.happened_at < ${DAY_END}) AS done_at
          FROM rounds r JOIN round_stops s ON s.round_id = r.id JOIN orders o ON o.id = s.order_id
          WHERE r.id = $1 AND s.kind = 'delivery' ORDER BY s.position`,
        values: [roundId],
      });
      const position = round.departure
        ? (
            await db.query<{ lat: number; lng: number; recorded_at: Date }>({
              name: 'arrivals.position',
              text: `SELECT lat, lng, recorded_at FROM courier_positions
                WHERE round_id = $1 AND recorded_at > $2 ORDER BY recorded_at DESC LIMIT 1`,
              values: [roundId, round.departure],
            })
          ).rows[0]
        : undefined;
      return {
        roundId: round.id,
        date: round.date,
        courierId: round.courier_id,
        departure: round.departure,
        vehicleKind: isVehicleKind(round.vehicle_kind) ? round.vehicle_kind : null,
        hub:
          round.hub_lat !== null && round.hub_lng !== null
            ? { lat: round.hub_lat, lng: round.hub_lng }
            : null,
        stops: stops.rows.map((s) => ({
          orderId: String(s.order_id),
          brandId: s.brand_id,
          trackingRef: s.tracking_ref,
          point: s.lat !== null && s.lng !== null ? { lat: s.lat, lng: s.lng } : null,
          doneAt: s.done_at,
          finished: ['delivered', 'returned', 'cancelled'].includes(s.status),
        })),
        position: position
          ? { point: { lat: position.lat, lng: position.lng }, at: position.recorded_at }
          : null,
      };
    },

    async roundsOfOrders(orderIds, day) {
      if (orderIds.length === 0) return [];
      const { rows } = await db.query<{ round_id: string }>({
        name: 'arrivals.roundsOfOrders',
        text: `SELECT DISTINCT round_id FROM round_stops
          WHERE order_id = ANY($1::bigint[]) AND round_date = $2::date AND kind = 'delivery'
          ORDER BY round_id`,
        values: [orderIds, day],
      });
      return rows.map((r) => r.round_id);
    },

    async etasOfRefs(trackingRefs, day) {
      if (trackingRefs.length === 0) return new Map();
      const { rows } = await db.query<{ tracking_ref: string; eta: Date }>({
        name: 'arrivals.etasOfRefs',
        text: `SELECT o.tracking_ref, a.eta FROM orders o
          JOIN order_arrivals a ON a.order_id = o.id
          JOIN round_stops s ON s.order_id = o.id AND s.round_id = a.round_id AND s.round_date = $2::date
          WHERE o.tracking_ref = ANY($1::text[]) AND o.status = 'out_for_delivery'`,
        values: [trackingRefs, day],
      });
      return new Map(rows.map((r) => [r.tracking_ref, r.eta]));
    },

    async find(orderIds) {
      if (orderIds.length === 0) return new Map();
      const { rows } = await db.query<ArrivalRow>({
        name: 'arrivals.find',
        text: `SELECT order_id, round_id, eta, window_start, window_end, stops_before, announced_at,
            estimated_at FROM order_arrivals WHERE order_id = ANY($1::bigint[])`,
        values: [orderIds],
      });
      return new Map(rows.map((r) => [String(r.order_id), toArrival(r)]));
    },

    async save(arrivals, events) {
      if (arrivals.length === 0) return;
      const values: unknown[] = [
        JSON.stringify(
          arrivals.map((a) => ({
            order_id: a.orderId,
            round_id: a.roundId,
            eta: a.eta,
            window_start: a.windowStart,
            window_end: a.windowEnd,
            stops_before: a.stopsBefore,
            announced_at: a.announcedAt,
            estimated_at: a.estimatedAt,
          })),
        ),
      ];
      const upsert = `INSERT INTO order_arrivals AS a (order_id, round_id, eta, window_start, window_end,
            stops_before, announced_at, estimated_at)
          SELECT * FROM json_to_recordset($1::json) AS n(order_id bigint, round_id text, eta timestamptz,
            window_start timestamptz, window_end timestamptz, stops_before integer,
            announced_at timestamptz, estimated_at timestamptz)
          ON CONFLICT (order_id) DO UPDATE SET round_id = EXCLUDED.round_id, eta = EXCLUDED.eta,
            window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end,
            stops_before = EXCLUDED.stops_before, announced_at = EXCLUDED.announced_at,
            estimated_at = EXCLUDED.estimated_at
          RETURNING order_id::text AS order_id`;
      const outbox = keyedOutboxCtes(events, values, { cte: 'saved', key: 'order_id' });
      await db.query(
        outbox
          ? `WITH saved AS (${upsert}), ${outbox.ctes} SELECT count(*), ${outbox.select} FROM saved`
          : upsert,
        values,
      );
    },

    async sharingSince(courierId) {
      const { rows } = await db.query<{ since: Date | null }>({
        name: 'arrivals.sharingSince',
        text: 'SELECT shares_position_since AS since FROM couriers WHERE id = $1',
        values: [courierId],
      });
      return rows[0]?.since ?? null;
    },

    async setSharing(courierId, since) {
      await db.query({
        name: 'arrivals.setSharing',
        text: 'UPDATE couriers SET shares_position_since = $2 WHERE id = $1',
        values: [courierId, since],
      });
    },

    async roundInProgress(courierId, day) {
      const { rows } = await db.query<{ id: string }>({
        name: 'arrivals.roundInProgress',
        text: `SELECT r.id FROM rounds r WHERE r.courier_id = $1 AND r.round_date = $2::date
            AND EXISTS (SELECT 1 FROM round_stops s JOIN orders o ON o.id = s.order_id
              WHERE s.round_id = r.id AND s.kind = 'delivery' AND o.status = 'out_for_delivery')
          ORDER BY r.id LIMIT 1`,
        values: [courierId, day],
      });
      return rows[0]?.id ?? null;
    },

    async lastPositionAt(courierId) {
      const { rows } = await db.query<{ at: Date | null }>({
        name: 'arrivals.lastPositionAt',
        text: 'SELECT max(recorded_at) AS at FROM courier_positions WHERE courier_id = $1',
        values: [courierId],
      });
      return rows[0]?.at ?? null;
    },

    async recordPosition(p) {
      const { rowCount } = await db.query({
        name: 'arrivals.recordPosition',
        text: `INSERT INTO courier_positions (courier_id, recorded_at, round_id, lat, lng, accuracy_m)
          VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
        values: [p.courierId, p.at, p.roundId, p.point.lat, p.point.lng, p.accuracyM],
      });
      return (rowCount ?? 0) > 0;
    },

    async purgePositions(before, limit) {
      const { rowCount } = await db.query({
        name: 'arrivals.purgePositions',
        text: `DELETE FROM courier_positions WHERE ctid IN (
            SELECT ctid FROM courier_positions WHERE recorded_at < $1 LIMIT $2)`,
        values: [before, limit],
      });
      return rowCount ?? 0;
    },

    async forgetPositions(courierId) {
      const { rowCount } = await db.query({
        name: 'arrivals.forgetPositions',
        text: 'DELETE FROM courier_positions WHERE courier_id = $1',
        values: [courierId],
      });
      return rowCount ?? 0;
    },
  };
}
