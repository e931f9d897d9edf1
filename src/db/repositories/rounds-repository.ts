import type { PricingZone } from '../../domain/coverage/zones.ts';
import type { SortCodeRule } from '../../domain/labels/sort-codes.ts';
import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import type { LocationPrecision, LocationSource } from '../../domain/places/location.ts';
import type { RoundStore, StopDetail } from '../../domain/rounds/ports.ts';
import { NO_PLAN, type Round, type StopRef, stopKey } from '../../domain/rounds/round.ts';
import type { Queryable } from '../pool.ts';

/** An order the planner places, as both of its queries read it (at the hub, or same-day at the brand). */
interface DeliveryRow {
  id: string;
  tracking_ref: string;
  delivery_postcode: string | null;
  delivery_lat: number | null;
  delivery_lng: number | null;
  quantity: number;
  unit_weight_grams: number;
}

function plannedDelivery(r: DeliveryRow) {
  return {
    orderId: r.id,
    trackingRef: r.tracking_ref,
    postcode: r.delivery_postcode,
    point:
      r.delivery_lat !== null && r.delivery_lng !== null
        ? { lat: r.delivery_lat, lng: r.delivery_lng }
        : null,
    parcels: r.quantity,
    grams: r.quantity * r.unit_weight_grams,
  };
}

interface RoundRow {
  id: string;
  date: string;
  name: string;
  courier_id: string | null;
  sort_codes: string[];
  version: number;
  vehicle_id: string | null;
  planned_distance_m: number | null;
  planned_duration_s: number | null;
  planned_by: string | null;
  driven_distance_m: number | null;
  stops:
    | {
        kind: 'pickup' | 'delivery';
        pickup_id: string | null;
        order_id: string | null;
        pinned: boolean;
        planned_arrival: string | null;
        leg_distance_m: number | null;
      }[]
    | null;
}

const ROUND_SELECT = `SELECT r.id, to_char(r.round_date, 'YYYY-MM-DD') AS date, r.name, r.courier_id, r.sort_codes,
  r.version, r.vehicle_id, r.planned_distance_m, r.planned_duration_s, r.planned_by, r.driven_distance_m,
  (SELECT json_agg(json_build_object('kind', s.kind, 'pickup_id', s.pickup_id, 'order_id', s.order_id::text,
     'pinned', s.pinned, 'planned_arrival', s.planned_arrival, 'leg_distance_m', s.leg_distance_m)
     ORDER BY s.position) FROM round_stops s WHERE s.round_id = r.id) AS stops
  FROM rounds r`;

const toRound = (r: RoundRow): Round => ({
  id: r.id,
  date: r.date,
  name: r.name,
  courierId: r.courier_id,
  sortCodes: r.sort_codes,
  version: r.version,
  plan: {
    vehicleId: r.vehicle_id,
    plannedDistanceM: r.planned_distance_m,
    plannedDurationS: r.planned_duration_s,
    plannedBy: r.planned_by,
  },
  drivenDistanceM: r.driven_distance_m,
  stops: (r.stops ?? []).map((s) => ({
    ...(s.kind === 'pickup'
      ? { kind: 'pickup' as const, pickupId: s.pickup_id! }
      : { kind: 'delivery' as const, orderId: s.order_id! }),
    pinned: s.pinned,
    plannedArrival: s.planned_arrival === null ? null : new Date(s.planned_arrival),
    legDistanceM: s.leg_distance_m,
  })),
});

const pickupIdsOf = (stops: readonly StopRef[]) =>
  stops.flatMap((s) => (s.kind === 'pickup' ? [s.pickupId] : []));
const orderIdsOf = (stops: readonly StopRef[]) =>
  stops.flatMap((s) => (s.kind === 'delivery' ? [s.orderId] : []));

export function roundsRepository(db: Queryable): RoundStore {
  return {
    async lockDay(date) {
      await db.query(`SELECT pg_advisory_xact_lock(hashtext('rounds:' || $1::text))`, [date]);
    },
    async roundsOfDay(date, courierId) {
      const { rows } = await db.query<RoundRow>(
        `${ROUND_SELECT} WHERE r.round_date = $1 AND ($2::text IS NULL OR r.courier_id = $2) ORDER BY r.name, r.id`,
        [date, courierId ?? null],
      );
      return rows.map(toRound);
    },
    async find(id) {
      const { rows } = await db.query<RoundRow>(`${ROUND_SELECT} WHERE r.id = $1`, [id]);
      return rows[0] ? toRound(rows[0]) : null;
    },
    async insert(round) {
      const plan = round.plan ?? NO_PLAN;
      await db.query(
        `INSERT INTO rounds (id, round_date, name, courier_id, sort_codes, vehicle_id, planned_distance_m,
                             planned_duration_s, planned_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          round.id,
          round.date,
          round.name,
          round.courierId,
          round.sortCodes,
          plan.vehicleId,
          plan.plannedDistanceM,
          plan.plannedDurationS,
          plan.plannedBy,
        ],
      );
    },
    async update(id, changes) {
      const plan = changes.plan;
      await db.query(
        `UPDATE rounds SET courier_id = CASE WHEN $2 THEN $3 ELSE courier_id END,
                sort_codes = coalesce($4, sort_codes),
                vehicle_id = CASE WHEN $5 THEN $6 ELSE vehicle_id END,
                planned_distance_m = CASE WHEN $5 THEN $7 ELSE planned_distance_m END,
                planned_duration_s = CASE WHEN $5 THEN $8 ELSE planned_duration_s END,
                planned_by = CASE WHEN $5 THEN $9 ELSE planned_by END,
                version = version + 1, updated_at = now() WHERE id = $1`,
        [
          id,
          changes.courierId !== undefined,
          changes.courierId ?? null,
          changes.sortCodes ?? null,
          plan !== undefined,
          plan?.vehicleId ?? null,
          plan?.plannedDistanceM ?? null,
          plan?.plannedDurationS ?? null,
          plan?.plannedBy ?? null,
        ],
      );
    },
    async remove(id) {
      await db.query('DELETE FROM rounds WHERE id = $1', [id]);
    },
    async startedRounds(date) {
      const { rows } = await db.query<{ id: string }>(
        `SELECT r.id FROM rounds r WHERE r.round_date = $1 AND EXISTS (SELECT 1 FROM scans x WHERE x.round_id = r.id)`,
        [date],
      );
      return new Set(rows.map((r) => r.id));
    },
    async planningStops(date) {
      const deliveries = await db.query<DeliveryRow>(
        `SELECT id::text, tracking_ref, delivery_postcode, delivery_lat, delivery_lng, quantity, unit_weight_grams
           FROM orders
          WHERE status IN ('picked_up', 'in_transit', 'failed_attempt') AND promised_date <= $1
          ORDER BY id`,
        [date],
      );
      const pickups = await db.query<{
        id: string;
        pickup_address: string;
        window_start: string;
        window_end: string;
        parcels: number;
        grams: string;
      }>(
        `SELECT p.id, p.pickup_address, p.window_start, p.window_end,
                count(o.id)::int AS parcels, coalesce(sum(o.quantity * o.unit_weight_grams), 0)::text AS grams
           FROM pickups p LEFT JOIN orders o ON o.pickup_id = p.id AND o.status <> 'cancelled'
                AND NOT (o.service = 'express' AND o.status = 'pending' AND o.promised_date <= $1)
          WHERE p.pickup_date = $1 AND p.status = 'planned'
          GROUP BY p.id ORDER BY p.id`,
        [date],
      );
      // Same-day parcels still at the brand (SPEC §11): express, not picked up, on a pickup of the day.
      const sameDay = await db.query<DeliveryRow & { pickup_id: string }>(
        `SELECT o.id::text, o.tracking_ref, o.delivery_postcode, o.delivery_lat, o.delivery_lng, o.quantity,
                o.unit_weight_grams, o.pickup_id
           FROM orders o JOIN pickups p ON p.id = o.pickup_id
          WHERE o.service = 'express' AND o.status = 'pending' AND o.promised_date <= $1
            AND p.pickup_date = $1 AND p.status = 'planned'
          ORDER BY o.id`,
        [date],
      );
      return {
        sameDay: sameDay.rows.map((r) => ({ ...plannedDelivery(r), pickupId: r.pickup_id })),
        deliveries: deliveries.rows.map(plannedDelivery),
        pickups: pickups.rows.map((r) => ({
          pickupId: r.id,
          address: r.pickup_address,
          window: { start: r.window_start, end: r.window_end },
          parcels: r.parcels,
          grams: Number(r.grams),
        })),
      };
    },
    async replaceStops(id, date, stops) {
      await db.query('DELETE FROM round_stops WHERE round_id = $1', [id]);
      if (stops.length === 0) {
        await db.query('UPDATE rounds SET updated_at = now(), version = version + 1 WHERE id = $1', [id]);
        return;
      }
      await db.query(
        `INSERT INTO round_stops (round_id, round_date, position, kind, pickup_id, order_id, pinned, planned_arrival,
                                  leg_distance_m)
         SELECT $1, $2, s.position, s.kind, s.pickup_id, s.order_id::bigint, coalesce(s.pinned, false),
                s.planned_arrival, s.leg_distance_m
           FROM json_to_recordset($3::json)
             AS s(position int, kind text, pickup_id text, order_id text, pinned boolean, planned_arrival timestamptz,
                  leg_distance_m int)`,
        [
          id,
          date,
          JSON.stringify(
            stops.map((s, i) => ({
              position: i + 1,
              kind: s.kind,
              pickup_id: s.kind === 'pickup' ? s.pickupId : null,
              order_id: s.kind === 'delivery' ? s.orderId : null,
              pinned: s.pinned === true,
              planned_arrival: s.plannedArrival?.toISOString() ?? null,
              leg_distance_m: s.legDistanceM ?? null,
            })),
          ),
        ],
      );
      await db.query('UPDATE rounds SET updated_at = now(), version = version + 1 WHERE id = $1', [id]);
    },
    async deliveriesDue(date) {
      const { rows } = await db.query<{
        id: string;
        delivery_postcode: string | null;
        delivery_zone: PricingZone | null;
        delivery_address: string | null;
      }>(
        `SELECT id::text, delivery_postcode, delivery_zone, delivery_address FROM orders
          WHERE status IN ('picked_up', 'in_transit', 'failed_attempt') AND promised_date <= $1
            AND livemode -- a test order moved by simulation is never delivered
          ORDER BY id`,
        [date],
      );
      return rows.map((r) => ({
        orderId: r.id,
        postcode: r.delivery_postcode,
        zone: r.delivery_zone,
        address: r.delivery_address ?? '',
      }));
    },
    async pickupsDue(date) {
      const { rows } = await db.query<{ id: string; pickup_address: string }>(
        `SELECT id, pickup_address FROM pickups WHERE pickup_date = $1 AND status = 'planned' ORDER BY id`,
        [date],
      );
      return rows.map((r) => ({ pickupId: r.id, address: r.pickup_address }));
    },
    async cancelledAmong(orderIds) {
      if (orderIds.length === 0) return [];
      const { rows } = await db.query<{ id: string }>(
        `SELECT id::text FROM orders WHERE id = ANY($1::bigint[]) AND status = 'cancelled'`,
        [orderIds],
      );
      return rows.map((r) => r.id);
    },
    async sortCodes(): Promise<SortCodeRule[]> {
      const { rows } = await db.query<{ postcode_prefix: string; sort_code: string }>(
        'SELECT postcode_prefix, sort_code FROM sort_codes ORDER BY postcode_prefix',
      );
      return rows.map((r) => ({ postcodePrefix: r.postcode_prefix, sortCode: r.sort_code }));
    },
    async ordersByRef(refs) {
      if (refs.length === 0) return new Map();
      const { rows } = await db.query<{ id: string; tracking_ref: string; status: OrderStatus }>(
        // A test order is no parcel to deliver: unknown to rounds.
        'SELECT id::text, tracking_ref, status FROM orders WHERE tracking_ref = ANY($1::text[]) AND livemode',
        [refs],
      );
      return new Map(rows.map((r) => [r.tracking_ref, { id: r.id, status: r.status }]));
    },
    async pickupsOnDate(pickupIds, date) {
      if (pickupIds.length === 0) return new Set();
      const { rows } = await db.query<{ id: string }>(
        'SELECT id FROM pickups WHERE id = ANY($1::text[]) AND pickup_date = $2',
        [pickupIds, date],
      );
      return new Set(rows.map((r) => r.id));
    },
    async onOtherRounds(date, stops, exceptRoundId) {
      const { rows } = await db.query<{
        kind: 'pickup' | 'delivery';
        pickup_id: string;
        order_id: string;
        name: string;
      }>(
        `SELECT s.kind, s.pickup_id, s.order_id::text, r.name FROM round_stops s JOIN rounds r ON r.id = s.round_id
          WHERE s.round_date = $1 AND ($2::text IS NULL OR s.round_id <> $2)
            AND (s.pickup_id = ANY($3::text[]) OR s.order_id = ANY($4::bigint[]))`,
        [date, exceptRoundId, pickupIdsOf(stops), orderIdsOf(stops)],
      );
      return new Map(
        rows.map((r) => [
          stopKey(
            r.kind === 'pickup'
              ? { kind: 'pickup', pickupId: r.pickup_id }
              : { kind: 'delivery', orderId: r.order_id },
          ),
          r.name,
        ]),
      );
    },
    async stopDetails(roundIds) {
      if (roundIds.length === 0) return [];
      const { rows } = await db.query<{
        round_id: string;
        position: number;
        kind: 'pickup' | 'delivery';
        pickup_id: string | null;
        brand_name: string | null;
        pickup_address: string | null;
        window_start: string | null;
        window_end: string | null;
        pickup_status: string | null;
        parcels: string[] | null;
        order_id: string | null;
        tracking_ref: string | null;
        status: string | null;
        delivery_recipient: string | null;
        delivery_address: string | null;
        delivery_postcode: string | null;
        delivery_city: string | null;
        delivery_zone: PricingZone | null;
        delivery_phone: string | null;
        quantity: number | null;
        failed_attempts: number | null;
        delivery_lat: number | null;
        delivery_lng: number | null;
        delivery_location_precision: LocationPrecision | null;
        delivery_location_source: LocationSource | null;
        pinned: boolean;
        planned_arrival: Date | null;
        leg_distance_m: number | null;
      }>(
        `SELECT s.round_id, s.position, s.kind, s.pinned, s.planned_arrival, s.leg_distance_m,
                p.id AS pickup_id, b.name AS brand_name, p.pickup_address, p.window_start, p.window_end,
                p.status AS pickup_status,
                CASE WHEN p.id IS NULL THEN NULL WHEN p.status = 'planned'
                  THEN ARRAY(SELECT x.tracking_ref FROM orders x WHERE x.pickup_id = p.id AND x.status <> 'cancelled' ORDER BY x.id)
                  ELSE p.collected_refs || p.missing_refs END AS parcels,
                o.id::text AS order_id, o.tracking_ref, o.status, o.delivery_recipient, o.delivery_address,
                o.delivery_postcode, o.delivery_city, o.delivery_zone, o.delivery_phone, o.quantity,
                o.delivery_lat, o.delivery_lng, o.delivery_location_precision, o.delivery_location_source,
                (SELECT count(*) FROM json_array_elements(o.history) e WHERE e->>'status' = 'failed_attempt')::int
                  AS failed_attempts
           FROM round_stops s
           LEFT JOIN pickups p ON p.id = s.pickup_id
           LEFT JOIN brands b ON b.id = p.brand_id
           LEFT JOIN orders o ON o.id = s.order_id
          WHERE s.round_id = ANY($1::text[])
          ORDER BY s.round_id, s.position`,
        [roundIds],
      );
      return rows.map(
        (r): StopDetail =>
          r.kind === 'pickup'
            ? {
                roundId: r.round_id,
                position: r.position,
                plan: { pinned: r.pinned, plannedArrival: r.planned_arrival, legDistanceM: r.leg_distance_m },
                kind: 'pickup',
                pickup: {
                  id: r.pickup_id!,
                  brandName: r.brand_name ?? '',
                  pickupAddress: r.pickup_address!,
                  window: { start: r.window_start!, end: r.window_end! },
                  status: r.pickup_status!,
                  parcels: r.parcels ?? [],
                },
              }
            : {
                roundId: r.round_id,
                position: r.position,
                plan: { pinned: r.pinned, plannedArrival: r.planned_arrival, legDistanceM: r.leg_distance_m },
                kind: 'delivery',
                order: {
                  id: r.order_id!,
                  trackingRef: r.tracking_ref!,
                  status: r.status!,
                  recipient: r.delivery_recipient,
                  address: r.delivery_address,
                  postcode: r.delivery_postcode,
                  city: r.delivery_city,
                  zone: r.delivery_zone,
                  phone: r.delivery_phone,
                  quantity: r.quantity!,
                  failedAttempts: r.failed_attempts ?? 0,
                  location:
                    r.delivery_lat !== null &&
                    r.delivery_lng !== null &&
                    r.delivery_location_precision !== null &&
                    r.delivery_location_source !== null
                      ? {
                          lat: r.delivery_lat,
                          lng: r.delivery_lng,
                          precision: r.delivery_location_precision,
                          source: r.delivery_location_source,
                        }
                      : null,
                },
              },
      );
    },
    async removeUnscannedStops(orderId, days) {
      const { rows } = await db.query<{ round_id: string }>(
        `DELETE FROM round_stops s
          WHERE s.order_id = $1::bigint AND s.round_date >= $2::date AND s.round_date <> $3::date
            AND NOT EXISTS (SELECT 1 FROM scans x
                             WHERE x.round_id = s.round_id AND x.order_id = s.order_id AND x.result = 'applied')
          RETURNING s.round_id`,
        [orderId, days.from, days.keep],
      );
      const rounds = [...new Set(rows.map((r) => r.round_id))];
      if (rounds.length === 0) return 0;
      // Positions stay 1..n, as every other edit of a round leaves them (replaceStops): the primary key
      // is checked at the statement's end (DEFERRABLE), so one UPDATE can shift them all.
      await db.query(
        `UPDATE round_stops s SET position = n.rn
           FROM (SELECT round_id, position, row_number() OVER (PARTITION BY round_id ORDER BY position)::int AS rn
                   FROM round_stops WHERE round_id = ANY($1::text[])) n
          WHERE s.round_id = n.round_id AND s.position = n.position AND s.position <> n.rn`,
        [rounds],
      );
      await db.query('UPDATE rounds SET updated_at = now() WHERE id = ANY($1::text[])', [rounds]);
      return rows.length;
    },
    async roundOfOrder(orderId, date) {
      const { rows } = await db.query<{ round_id: string; courier_id: string | null }>(
        `SELECT s.round_id, r.courier_id FROM round_stops s JOIN rounds r ON r.id = s.round_id
          WHERE s.order_id = $1::bigint AND s.round_date = $2`,
        [orderId, date],
      );
      return rows[0] ? { roundId: rows[0].round_id, courierId: rows[0].courier_id } : null;
    },
  };
}
