import { parisLocalTime } from '../calendar/paris-time.ts';

/**
 * The console's Today board (issue 39): the day's pickups, rounds and couriers and the counters a
 * dispatcher watches, read in one go. No recipient data: names, addresses and phones stay on the
 * order page, whose read is audited.
 */
export interface BoardPickup {
  id: string;
  brandName: string;
  windowStart: string;
  windowEnd: string;
  status: 'planned' | 'collected' | 'partially_collected' | 'missed';
  parcels: number;
  missing: number;
}

interface BoardRound {
  id: string;
  name: string;
  courierName: string | null;
  stops: number;
  done: number;
  /**
   * Stops not done that are behind: a pickup still open after its window's end, a delivery
   * promised before today.
   */
  late: number;
}

interface BoardCourier {
  id: string;
  name: string;
  rounds: string[];
  lastScanAt: Date | null;
  lastScanCode: string | null;
  lastScanContext: string | null;
  lastScanResult: string | null;
}

interface BoardCounters {
  deliveryStops: number;
  delivered: number;
  failedAttempts: number;
  pickupsClosed: number;
  pickups: number;
  missingParcels: number;
  scans: number;
}

export interface Board {
  date: string;
  at: Date;
  pickups: BoardPickup[];
  rounds: BoardRound[];
  couriers: BoardCourier[];
  counters: BoardCounters;
}

/** The board's read model (the database's). */
export interface BoardReader {
  board(date: string, now: Date): Promise<Board>;
  /** A value that changes whenever the board would: the live updates poll it, not the board. */
  fingerprint(date: string): Promise<string>;
}

/** A pickup still open after its window (Paris time) is late. */
export function pickupIsLate(
  pickup: Pick<BoardPickup, 'status' | 'windowEnd'>,
  date: string,
  now: Date,
): boolean {
  if (pickup.status !== 'planned') return false;
  const local = parisLocalTime(now);
  if (local.date !== date) return local.date > date;
  const hhmm = `${String(local.hour).padStart(2, '0')}:${String(local.minute).padStart(2, '0')}`;
  return hhmm > pickup.windowEnd;
}
