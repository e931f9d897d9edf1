import { distanceMetres, type GeoPoint } from './location.ts';
import type { TravelMatrix, TravelTimes } from './ports.ts';
import { VEHICLE_SPECS, type VehicleProfile } from './vehicles.ts';

/**
 * The offline travel times (no router configured, or the router failed): the great-circle distance
 * × the profile's detour factor, at the profile's speed (vehicles.ts). Symmetric, 0 on the diagonal;
 * distances in whole metres and durations in whole seconds, as a router's would be read.
 */
export function estimatedMatrix(points: readonly GeoPoint[], profile: VehicleProfile): TravelMatrix {
  const { speedKmh, detour } = VEHICLE_SPECS[profile];
  const metresPerSecond = speedKmh / 3.6;
  const n = points.length;
  const distances = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const durations = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const metres = Math.round(distanceMetres(points[i]!, points[j]!) * detour);
      const seconds = Math.round(metres / metresPerSecond);
      distances[i]![j] = distances[j]![i] = metres;
      durations[i]![j] = durations[j]![i] = seconds;
    }
  }
  return { durations, distances, source: 'estimate' };
}

/** The offline TravelTimes (no OSRM_URL): every matrix estimated. */
export const estimatedTravelTimes: TravelTimes = {
  matrix: async (points, profile) => estimatedMatrix(points, profile),
};
