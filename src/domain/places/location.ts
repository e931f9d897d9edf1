/**
 * Where an address is (SPEC §11): a WGS 84 point, how precise it is and where it comes from. The
 * order keeps one (`delivery_location`); the brand that owns it, its courier and the operator see
 * it, never the tracking page.
 */

/** A WGS 84 point in decimal degrees, 6 decimals at most (about 10 cm). */
export interface GeoPoint {
  lat: number;
  lng: number;
}

/** Finest first: a house number, a street, a named place (lieu-dit, a commune's centre), a postcode. */
export const LOCATION_PRECISIONS = ['rooftop', 'street', 'locality', 'postcode'] as const;
export type LocationPrecision = (typeof LOCATION_PRECISIONS)[number];

/**
 * `brand`: the order's `delivery_lat`/`delivery_lng` (or a shop's shipping address); `geocoder`: the
 * Base Adresse Nationale or a self-hosted addok; `delivery`: learned where an earlier parcel to the
 * same address was delivered; `postcode`: the offline default, the postcode's point.
 */
export const LOCATION_SOURCES = ['brand', 'geocoder', 'delivery', 'postcode'] as const;
export type LocationSource = (typeof LOCATION_SOURCES)[number];

export interface DeliveryLocation extends GeoPoint {
  precision: LocationPrecision;
  source: LocationSource;
}

/** Coordinates are kept to 6 decimals: finer says nothing more about a door. */
export const roundCoordinate = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * Which of two known locations of an address to keep: the finer, then (equal precision) the one
 * closer to what happened: where a parcel was delivered before what a geocoder says.
 */
export function betterLocation<L extends DeliveryLocation>(a: L | null, b: L | null): L | null {
  if (a === null) return b;
  if (b === null) return a;
  const rank = (l: DeliveryLocation) =>
    LOCATION_PRECISIONS.indexOf(l.precision) * 10 + LOCATION_SOURCES.indexOf(l.source);
  return rank(b) < rank(a) ? b : a;
}

const EARTH_RADIUS_M = 6_371_008.8;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** The great-circle distance in metres (haversine, on the mean Earth radius). */
export function distanceMetres(a: GeoPoint, b: GeoPoint): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
