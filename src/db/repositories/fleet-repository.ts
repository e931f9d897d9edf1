import type { Hub, Shift, Vehicle, VehicleKind } from '../../domain/fleet/fleet.ts';
import type { FleetStore } from '../../domain/fleet/ports.ts';
import type { Queryable } from '../pool.ts';

interface VehicleRow {
  id: string;
  name: string;
  kind: VehicleKind;
  capacity_parcels: number;
  capacity_kg: string;
  hub_id: string;
  disabled_at: Date | null;
  created_at: Date;
}

const toVehicle = (r: VehicleRow): Vehicle => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  capacityParcels: r.capacity_parcels,
  capacityKg: Number(r.capacity_kg),
  hubId: r.hub_id,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
});

const toHub = (r: {
  id: string;
  name: string;
  address: string;
  lat: number;
  lng: number;
  created_at: Date;
}): Hub => ({
  id: r.id,
  name: r.name,
  address: r.address,
  lat: r.lat,
  lng: r.lng,
  createdAt: r.created_at,
});

export function fleetRepository(db: Queryable): FleetStore {
  return {
    async hubs() {
      const { rows } = await db.query('SELECT * FROM hubs ORDER BY name');
      return rows.map(toHub);
    },
    async findHub(key) {
      const { rows } = await db.query('SELECT * FROM hubs WHERE id = $1 OR name = $1', [key]);
      return rows[0] ? toHub(rows[0]) : null;
    },
    async insertHub(h) {
      await db.query(
        'INSERT INTO hubs (id, name, address, lat, lng, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [h.id, h.name, h.address, h.lat, h.lng, h.createdAt],
      );
    },
    async vehicles() {
      const { rows } = await db.query<VehicleRow>(
        'SELECT * FROM vehicles ORDER BY disabled_at IS NOT NULL, name',
      );
      return rows.map(toVehicle);
    },
    async findVehicle(key) {
      const { rows } = await db.query<VehicleRow>('SELECT * FROM vehicles WHERE id = $1 OR name = $1', [key]);
      return rows[0] ? toVehicle(rows[0]) : null;
    },
    async insertVehicle(v) {
      await db.query(
        `INSERT INTO vehicles (id, name, kind, capacity_parcels, capacity_kg, hub_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [v.id, v.name, v.kind, v.capacityParcels, v.capacityKg, v.hubId, v.createdAt],
      );
    },
    async disableVehicle(id, at) {
      await db.query('UPDATE vehicles SET disabled_at = coalesce(disabled_at, $2) WHERE id = $1', [id, at]);
    },
    async shiftsOfDay(date) {
      const { rows } = await db.query<{
        courier_id: string;
        date: string;
        starts_at: string;
        ends_at: string;
        vehicle_id: string;
        break_from: string | null;
        break_until: string | null;
        break_minutes: number | null;
      }>(
        `SELECT courier_id, to_char(shift_date, 'YYYY-MM-DD') AS date, to_char(starts_at, 'HH24:MI') AS starts_at,
                to_char(ends_at, 'HH24:MI') AS ends_at, vehicle_id, to_char(break_from, 'HH24:MI') AS break_from,
                to_char(break_until, 'HH24:MI') AS break_until, break_minutes
           FROM courier_shifts WHERE shift_date = $1 ORDER BY starts_at, courier_id`,
        [date],
      );
      return rows.map(
        (r): Shift => ({
          courierId: r.courier_id,
          date: r.date,
          startsAt: r.starts_at,
          endsAt: r.ends_at,
          vehicleId: r.vehicle_id,
          break:
            r.break_from !== null && r.break_until !== null && r.break_minutes !== null
              ? { from: r.break_from, until: r.break_until, minutes: r.break_minutes }
              : null,
        }),
      );
    },
    async upsertShift(s) {
      await db.query(
        `INSERT INTO courier_shifts (courier_id, shift_date, starts_at, ends_at, vehicle_id, break_from, break_until,
                                     break_minutes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (courier_id, shift_date) DO UPDATE
           SET starts_at = excluded.starts_at, ends_at = excluded.ends_at, vehicle_id = excluded.vehicle_id,
               break_from = excluded.break_from, break_until = excluded.break_until,
               break_minutes = excluded.break_minutes, updated_at = now()`,
        [
          s.courierId,
          s.date,
          s.startsAt,
          s.endsAt,
          s.vehicleId,
          s.break?.from ?? null,
          s.break?.until ?? null,
          s.break?.minutes ?? null,
        ],
      );
    },
    async deleteShift(courierId, date) {
      const { rowCount } = await db.query(
        'DELETE FROM courier_shifts WHERE courier_id = $1 AND shift_date = $2',
        [courierId, date],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}
