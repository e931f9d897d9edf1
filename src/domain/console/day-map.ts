import { extractPostcode } from '../coverage/extract-postcode.ts';
import type { GeoPoint, LocationPrecision } from '../places/location.ts';
import { postcodePoint } from '../places/region.ts';

/**
 * The console's Map (issue 39): the day's stops and pickups by round, each round's line, and the
 * last position of the couriers who share theirs. Like the board, no recipient data: a stop is its
 * tracking reference, its brand and its status; the order page (audited) holds the rest.
 */

/** A round of the day as the map draws it. */
interface MapRound {
  id: string;
  name: string;
  courierName: string | null;
  /** The round's colour: its rank among the day's rounds by name (the page's palette repeats it). */
  colour: number;
  stops: number;
  done: number;
}

/** A stop on a round, or a pickup of the day not on any round (then `roundId` and `position` are null). */
export interface MapStop {
  kind: 'delivery' | 'pickup';
  /** The order's tracking reference; the pickup's id. */
  ref: string;
  roundId: string | null;
  position: number | null;
  brandId: string;
  brandName: string;
  /** The order's status; the pickup's. */
  status: string;
  /** Delivered, failed, returned or cancelled; a pickup once closed. */
  done: boolean;
  /** Null: the stop has no known position (listed beside the map, not drawn). */
  point: GeoPoint | null;
  /** How sure the point is: the order's location's; a pickup is placed at its address's postcode. */
  precision: LocationPrecision | null;
}

/** A courier's last position on one of the day's rounds, kept only while they share it. */
interface MapCourier {
  id: string;
  name: string;
  roundId: string;
  point: GeoPoint;
  accuracyM: number | null;
  at: Date;
}

export interface DayMap {
  date: string;
  at: Date;
  rounds: MapRound[];
  /** Each round's stops in their order (the round's line), rounds by name, then the pickups on no round. */
  stops: MapStop[];
  couriers: MapCourier[];
}

/** The day as the database holds it, before the pickups are placed. */
export interface DayMapRows {
  rounds: Omit<MapRound, 'colour'>[];
  /** Deliveries carry their order's point; pickups their address (`point` null). */
  stops: (Omit<MapStop, 'point' | 'precision'> & {
    point: GeoPoint | null;
    precision: LocationPrecision | null;
    pickupAddress: string | null;
  })[];
  couriers: MapCourier[];
}

/** The map's read model (the database's). */
export interface DayMapReader {
  /** The day's rounds by name, their stops in order, then the day's pickups on no round. */
  dayMap(date: string): Promise<DayMapRows>;
}

/**
 * The day's map from its rows: each round gets its colour by rank among all the day's rounds (the
 * same whichever round is shown), and each pickup its address's postcode point (where the planner
 * places pickups too, domain/rounds); a pickup whose address names no postcode of the region stays
 * without a position. `roundId`: that round only (its stops and courier; the rounds all listed).
 */
export function dayMapOf(date: string, at: Date, rows: DayMapRows, roundId?: string): DayMap {
  const shown = <T extends { roundId: string | null }>(x: T) =>
    roundId === undefined || x.roundId === roundId;
  return {
    date,
    at,
    rounds: rows.rounds.map((r, colour) => ({ ...r, colour })),
    stops: rows.stops.filter(shown).map(({ pickupAddress, ...s }) => {
      if (s.kind === 'delivery' || s.point) return s;
      const postcode = pickupAddress ? extractPostcode(pickupAddress) : null;
      const point = postcode ? postcodePoint(postcode) : null;
      return { ...s, point, precision: point ? ('postcode' as const) : null };
    }),
    couriers: rows.couriers.filter(shown),
  };
}

/** The stops the map cannot draw. */
export const unplacedStops = (map: DayMap): MapStop[] => map.stops.filter((s) => s.point === null);
