import type { GeoPoint, LocationPrecision } from './location.ts';
import type { VehicleProfile } from './vehicles.ts';

/** What a geocoder's answer says an address is: BAN's (GeoCodeJSON) `type`. */
export type GeocodeType = 'housenumber' | 'street' | 'locality' | 'municipality';

/** One candidate of a geocoder's answer (a GeoCodeJSON feature, the members the service reads). */
export interface GeocodeCandidate {
  point: GeoPoint;
  /** 0 to 1: how well the candidate matches the query. */
  score: number;
  type: GeocodeType;
  /** The address as the geocoder writes it ("12 Rue Oberkampf 75011 Paris"). */
  label: string;
  postcode: string | null;
  /** INSEE code of the commune (75111 for the 11th arrondissement). */
  citycode: string | null;
  city: string | null;
}

/**
 * A geocoder's answer: its candidates, best first (none: nothing found), or why there is none.
 * `rejected`: it refused the query (400: too short, too long, not starting with a letter or digit);
 * `throttled`: its limit (ours or its 429s) leaves no room before the deadline; `timeout`: no answer
 * in time; `error`: 5xx or a malformed answer, after retries; `down`: refused connections, or the
 * breaker open after consecutive failures (nothing is sent then).
 */
export type GeocodeAnswer =
  | { status: 'found'; candidates: GeocodeCandidate[] }
  | { status: 'rejected' | 'throttled' | 'timeout' | 'error' | 'down' };

/**
 * The Base Adresse Nationale's `/search` (or a self-hosted addok): an address as typed, with its
 * retries, its pacing and its breaker inside; answers by `deadline` (epoch ms) whatever happens.
 */
export interface Geocoder {
  search(query: string, deadline: number): Promise<GeocodeAnswer>;
}

/** A place already known for a normalised address (address_points, migration 0046). */
export interface KnownPlace {
  source: 'geocoder' | 'delivery';
  /** null: the geocoder found nothing for this address (cached too, for less long). */
  point: GeoPoint | null;
  precision: LocationPrecision | null;
  score: number | null;
  postcode: string | null;
  citycode: string | null;
  city: string | null;
  label: string | null;
}

/** The shared cache of places by normalised address, and what deliveries taught. */
export interface PlaceStore {
  /** The unexpired places known for these keys (a geocoder's answer, a delivery's point). */
  find(keys: readonly string[], now: Date): Promise<Map<string, KnownPlace[]>>;
  /** Keeps a geocoder's answer (its best candidate, or that there was none) until `expiresAt`. */
  saveGeocoded(key: string, place: KnownPlace, at: Date, expiresAt: Date): Promise<void>;
  /** Keeps where a parcel to the address was delivered (replacing an older one) until `expiresAt`. */
  learn(key: string, point: GeoPoint, precision: LocationPrecision, at: Date, expiresAt: Date): Promise<void>;
  /** The keys written after `afterSeq` (the filters of known addresses), at most `limit`, and the last seq. */
  keysAfter(afterSeq: number, limit: number): Promise<{ keys: string[]; last: number }>;
  /** Drops expired places; returns how many. */
  purgeExpired(now: Date, limit: number): Promise<number>;
}

/** A duration/distance matrix: `durations[i][j]` seconds and `distances[i][j]` metres from i to j. */
export interface TravelMatrix {
  durations: number[][];
  distances: number[][];
  /** `road`: a router's (OSRM); `estimate`: great-circle × detour at the profile's speed. */
  source: 'road' | 'estimate';
}

/** Travel times between points for a vehicle (SPEC §11): OSRM's `table`, else the estimate. */
export interface TravelTimes {
  matrix(points: readonly GeoPoint[], profile: VehicleProfile): Promise<TravelMatrix>;
}

/** What the places watch from inside, for the metrics (src/infra/metrics/places-metrics.ts). */
export interface PlacesObserver {
  /** A geocoder request's outcome: found, not_found, or a GeocodeAnswer's failure status. */
  geocoded(outcome: 'found' | 'not_found' | Exclude<GeocodeAnswer['status'], 'found'>): void;
  /** An address placed from the cache (`hit`) or not. */
  cacheLookup(hit: boolean): void;
  /** An address placed without the geocoder's word (at its postcode): `pending` or `unavailable`. */
  geocoderFallback(reason: 'pending' | 'unavailable'): void;
  /** A travel-time matrix estimated because the router failed (`reason`: its failure). */
  travelTimesFallback(reason: string): void;
}
