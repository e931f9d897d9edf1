import type { ManifestParcel, Pickup, PickupOrder, PickupStore } from '../../domain/pickups/ports.ts';
import type { OutboxEvent } from '../../events/outbox.ts';
import { appendEvents } from '../outbox-sql.ts';
import type { Queryable } from '../pool.ts';

/**
 * A pickup's columns and its orders: while planned, those carrying its id now (an order cancelled
 * has left it, one not scanned has moved on); once closed, what the closing found.
 */
const PICKUP_SELECT = `p.id, p.brand_id, p.pickup_address, to_char(p.pickup_date, 'YYYY-MM-DD') AS date,
  p.window_start, p.window_end, p.status, p.requested_at, p.closed_at, p.missing_refs,
  CASE WHEN p.status = 'planned'
    THEN ARRAY(SELECT o.tracking_ref FROM orders o WHERE o.pickup_id = p.id AND o.status <> 'cancelled' ORDER BY o.id)
    ELSE p.collected_refs || p.missing_refs END AS order_refs`;

/** A planned pickup with no order in it and not asked for is nobody's business (see PickupStore.list). */
const WORTH_LISTING = `(p.status <> 'planned' OR p.requested_at IS NOT NULL
  OR EXISTS (SELECT 1 FROM orders o WHERE o.pickup_id = p.id AND o.status <> 'cancelled'))`;

type PickupRow = {
  id: string;
  brand_id: string;
  pickup_address: string;
  date: string;
  window_start: string;
  window_end: string;
  status: Pickup['status'];
  requested_at: Date | null;
  closed_at: Date | null;
  missing_refs: string[];
  order_refs: string[];
};

const toPickup = (row: PickupRow): Pickup => ({
  id: row.id,
  brandId: row.brand_id,
  pickupAddress: row.pickup_address,
  date: row.date,
  window: { start: row.window_start, end: row.window_end },
  status: row.status,
  requestedAt: row.requested_at,
  closedAt: row.closed_at,
  orderRefs: row.order_refs,
  missingRefs: row.missing_refs,
});

export function pickupsRepository(db: Queryable): PickupStore {
  async function find(id: string, brandId: string | null): Promise<Pickup | null> {
    const { rows } = await db.query<PickupRow>({
      name: 'pickups.find',
      text: `SELECT ${PICKUP_SELECT} FROM pickups p WHERE p.id = $1 AND ($2::text IS NULL OR p.brand_id = $2)`,
      values: [id, brandId],
    });
    return rows[0] ? toPickup(rows[0]) : null;
  }

  return {
    find,

    async list(brandId, query) {
      const values: unknown[] = [brandId, query.limit];
      const day = query.date
        ? `p.pickup_date = $${values.push(query.date)}::date`
        : `p.pickup_date >= $${values.push(query.from)}::date`;
      const { rows } = await db.query<PickupRow>(
        `SELECT ${PICKUP_SELECT} FROM pickups p
          WHERE ($1::text IS NULL OR p.brand_id = $1) AND ${day} AND ${WORTH_LISTING}
          ORDER BY p.pickup_date, p.pickup_address, p.id LIMIT $2`,
        values,
      );
      return rows.map(toPickup);
    },

    async request(pickup) {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO pickups (id, brand_id, pickup_address, pickup_date, window_start, window_end, requested_at)
          VALUES ($1, $2, $3, $4::date, $5, $6, $7)
          ON CONFLICT (id) DO UPDATE SET window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end,
            requested_at = coalesce(pickups.requested_at, EXCLUDED.requested_at)
          WHERE pickups.status = 'planned'
          RETURNING id`,
        [
          pickup.id,
          pickup.brandId,
          pickup.pickupAddress,
          pickup.date,
          pickup.window.start,
          pickup.window.end,
          pickup.at,
        ],
      );
      return rows[0] ? find(pickup.id, pickup.brandId) : null;
    },

    async manifestParcels(brandId: string, refs: string[]): Promise<ManifestParcel[]> {
      const { rows } = await db.query<{
        tracking_ref: string;
        reference: string | null;
        delivery_postcode: string | null;
        delivery_city: string | null;
        unit_weight_grams: number;
        quantity: number;
      }>(
        `SELECT o.tracking_ref, o.reference, o.delivery_postcode, o.delivery_city, o.unit_weight_grams, o.quantity
          FROM unnest($2::text[]) WITH ORDINALITY AS r (ref, n)
          JOIN orders o ON o.tracking_ref = r.ref AND o.brand_id = $1
          ORDER BY r.n`,
        [brandId, refs],
      );
      return rows.map((r) => ({
        trackingRef: r.tracking_ref,
        reference: r.reference,
        deliveryPostcode: r.delivery_postcode,
        deliveryCity: r.delivery_city,
        unitWeightGrams: r.unit_weight_grams,
        quantity: r.quantity,
      }));
    },

    async orders(id: string): Promise<PickupOrder[]> {
      const { rows } = await db.query<{ id: number; tracking_ref: string; status: string }>(
        `SELECT id, tracking_ref, status FROM orders WHERE pickup_id = $1 AND status <> 'cancelled' ORDER BY id`,
        [id],
      );
      return rows.map((r) => ({ id: r.id, trackingRef: r.tracking_ref, status: r.status }));
    },

    async close(change): Promise<boolean> {
      const { rows } = await db.query(
        `UPDATE pickups SET status = $2, closed_at = $3, collected_refs = $4, missing_refs = $5
          WHERE id = $1 AND status = 'planned' RETURNING brand_id, pickup_address`,
        [change.id, change.status, change.at, change.collectedRefs, change.missingRefs],
      );
      if (!rows[0]) return false;
      if (change.missingRefs.length > 0) {
        // The parcels left behind are collected on the next business day, with that day's others.
        await db.query(
          `WITH p AS (INSERT INTO pickups (id, brand_id, pickup_address, pickup_date)
              SELECT $2, brand_id, pickup_address, $3::date FROM pickups WHERE id = $1
              ON CONFLICT (id) DO NOTHING)
            UPDATE orders SET pickup_id = $2
              WHERE pickup_id = $1 AND status = 'pending' AND tracking_ref = ANY($4::text[])`,
          [change.id, change.next.id, change.next.date, change.missingRefs],
        );
      }
      if (change.event) await appendEvents(db, [change.event as OutboxEvent]);
      return true;
    },
  };
}
