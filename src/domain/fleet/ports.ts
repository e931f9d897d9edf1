import type { Hub, Shift, Vehicle } from './fleet.ts';

/** Hubs, vehicles and shifts (migration 0051). */
export interface FleetStore {
  hubs(): Promise<Hub[]>;
  findHub(idOrName: string): Promise<Hub | null>;
  insertHub(hub: Hub): Promise<void>;
  vehicles(): Promise<Vehicle[]>;
  findVehicle(idOrName: string): Promise<Vehicle | null>;
  insertVehicle(vehicle: Vehicle): Promise<void>;
  disableVehicle(id: string, at: Date): Promise<void>;
  /** The day's shifts, by courier id. */
  shiftsOfDay(date: string): Promise<Shift[]>;
  /** Sets (or replaces) the courier's shift of the day. */
  upsertShift(shift: Shift): Promise<void>;
  /** Removes the courier's shift of the day; whether there was one. */
  deleteShift(courierId: string, date: string): Promise<boolean>;
}
