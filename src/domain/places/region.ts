import { distanceMetres, type GeoPoint } from './location.ts';
import { POSTCODE_POINTS, REGION_POINTS } from './place-points.ts';

/**
 * The offline geography: a point for each Île-de-France postcode, and whether a point lies in the
 * region. Both from the table scripts/derive-place-points.ts derives (sources in docs/places.md),
 * parsed on first use: a process that never places an address does not pay for it.
 */

let postcodes: Map<string, GeoPoint> | undefined;
let towns: Array<GeoPoint & { inRegion: boolean }> | undefined;

/**
 * The point of an Île-de-France postcode: the centre of its first commune (an arrondissement's for
 * Paris), the location of an address at `postcode` precision. Null for a postcode outside the region.
 */
export function postcodePoint(postcode: string): GeoPoint | null {
  postcodes ??= new Map(
    POSTCODE_POINTS.split(';').map((row) => {
      const [code, coordinates] = row.split(':') as [string, string];
      const [lat, lng] = coordinates.split(',').map(Number) as [number, number];
      return [code, { lat, lng }];
    }),
  );
  return postcodes.get(postcode) ?? null;
}

/** Roughly the region's bounding box, widened a little: anything outside is outside (no search needed). */
const BOX = { south: 48.05, north: 49.3, west: 1.38, east: 3.62 };

/**
 * A town of the region closer than this counts even when a town outside is closer still: at the
 * border the nearest town decides wrongly within a few kilometres, and refusing a real address of
 * the region is worse than accepting a farm across the line.
 */
const BORDER_MARGIN_M = 3_000;

/**
 * Whether a point lies in Île-de-France: the nearest of the region's towns and those around it is
 * one of the region's, or one of the region's is within 3 km. Approximate near the border (a few
 * kilometres), exact where it matters: coordinates swapped, in another region or country.
 */
export function isInIleDeFrance(point: GeoPoint): boolean {
  if (point.lat < BOX.south || point.lat > BOX.north || point.lng < BOX.west || point.lng > BOX.east)
    return false;
  towns ??= REGION_POINTS.split(';').map((row) => {
    const [lat, lng, inRegion] = row.split(',').map(Number) as [number, number, number];
    return { lat, lng, inRegion: inRegion === 1 };
  });
  let nearest = Number.POSITIVE_INFINITY;
  let nearestInRegion = false;
  let nearestOfRegion = Number.POSITIVE_INFINITY;
  for (const town of towns) {
    const d = distanceMetres(point, town);
    if (d < nearest) {
      nearest = d;
      nearestInRegion = town.inRegion;
    }
    if (town.inRegion && d < nearestOfRegion) nearestOfRegion = d;
  }
  return nearestInRegion || nearestOfRegion <= BORDER_MARGIN_M;
}
