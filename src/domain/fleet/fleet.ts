/**
 * The fleet (issue 37, docs/planning.md): the hubs rounds start and end at, the vehicles and what
 * they carry, and each courier's shift and vehicle for a day. Plain values and their rules, so
 * they are tested without a database.
 */
import type { GeoPoint } from '../places/location.ts';
import type { VehicleProfile } from '../places/vehicles.ts';

/** What a vehicle is; its profile says how it moves (speeds, detours, the router's profile). */
export const VEHICLE_KINDS = ['cargo_bike', 'van', 'electric_van', 'on_foot'] as const;
export type VehicleKind = (typeof VEHICLE_KINDS)[number];

export const isVehicleKind = (value: unknown): value is VehicleKind =>
  (VEHICLE_KINDS as readonly unknown[]).includes(value);

/** An electric van drives as a van does: the same streets, the same speeds. */
export const PROFILE_OF_KIND: Readonly<Record<VehicleKind, VehicleProfile>> = {
  cargo_bike: 'cargo_bike',
  van: 'van',
  electric_van: 'van',
  on_foot: 'on_foot',
};

export interface Hub extends GeoPoint {
  id: string;
  name: string;
  address: string;
  createdAt: Date;
}

export interface Vehicle {
  id: string;
  name: string;
  kind: VehicleKind;
  capacityParcels: number;
  capacityKg: number;
  hubId: string;
  disabledAt: Date | null;
  createdAt: Date;
}

/** A break of `minutes`, taken whole between `from` and `until` (Paris wall clock, HH:MM). */
export interface ShiftBreak {
  from: string;
  until: string;
  minutes: number;
}

/**
 * A courier's day: from `startsAt` to `endsAt` (Paris wall clock, HH:MM), driving `vehicleId`,
 * with its break (null: none), which the optimiser plans around.
 */
export interface Shift {
  courierId: string;
  date: string;
  startsAt: string;
  endsAt: string;
  vehicleId: string;
  break: ShiftBreak | null;
}

/** `HH:MM` (00:00–23:59) to minutes since midnight; null when not one. */
export function minutesOf(time: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** A hub as the operations API and dlv --json give it. */
export type HubJson = {
  id: string;
  name: string;
  address: string;
  lat: number;
  lng: number;
  created_at: string;
};

/** A vehicle as the operations API and dlv --json give it. */
export type VehicleJson = {
  id: string;
  name: string;
  kind: Vehicle['kind'];
  capacity_parcels: number;
  capacity_kg: number;
  hub_id: Vehicle['hubId'];
  disabled_at: string | null;
  created_at: string;
};

/** A shift as the operations API and dlv --json give it. */
export type ShiftJson = {
  courier_id: string;
  date: string;
  starts_at: string;
  ends_at: string;
  vehicle_id: string;
  break: ShiftBreak | null;
};

export const hubJson = (h: Hub): HubJson => ({
  id: h.id,
  name: h.name,
  address: h.address,
  lat: h.lat,
  lng: h.lng,
  created_at: h.createdAt.toISOString(),
});

export const vehicleJson = (v: Vehicle): VehicleJson => ({
  id: v.id,
  name: v.name,
  kind: v.kind,
  capacity_parcels: v.capacityParcels,
  capacity_kg: v.capacityKg,
  hub_id: v.hubId,
  disabled_at: v.disabledAt?.toISOString() ?? null,
  created_at: v.createdAt.toISOString(),
});

export const shiftJson = (s: Shift): ShiftJson => ({
  courier_id: s.courierId,
  date: s.date,
  starts_at: s.startsAt,
  ends_at: s.endsAt,
  vehicle_id: s.vehicleId,
  break: s.break,
});
