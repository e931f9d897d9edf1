/**
 * How a courier moves (SPEC §11): the profile names the rounds, the shifts and the travel times
 * share. Each has the speed and the detour factor of the offline estimate (great-circle distance ×
 * detour, at the speed: docs/places.md, "Travel times"), and the OSRM profile that routes it when a
 * router is configured.
 */
export const VEHICLE_PROFILES = ['cargo_bike', 'van', 'on_foot'] as const;
export type VehicleProfile = (typeof VEHICLE_PROFILES)[number];

export const isVehicleProfile = (value: unknown): value is VehicleProfile =>
  (VEHICLE_PROFILES as readonly unknown[]).includes(value);

interface ProfileSpec {
  /** Average speed door to door in dense Île-de-France traffic, stops at lights included, km/h. */
  speedKmh: number;
  /**
   * Road distance ÷ great-circle distance. Measured circuity of urban road networks is 1.2–1.4
   * (Ballou, Rahardja & Sakai 2002; Boscoe et al. 2012); a bike takes contraflow lanes and
   * cycle paths, a walker cuts across squares.
   */
  detour: number;
  /** The OSRM profile (osrm-extract's Lua profile) that routes this vehicle. */
  osrmProfile: 'driving' | 'cycling' | 'walking';
}

export const VEHICLE_SPECS: Readonly<Record<VehicleProfile, ProfileSpec>> = {
  // Electric cargo bikes in Paris deliveries average 12–16 km/h between stops.
  cargo_bike: { speedKmh: 14, detour: 1.25, osrmProfile: 'cycling' },
  // Light vans in Paris and the inner suburbs: 15–20 km/h on average over a round.
  van: { speedKmh: 18, detour: 1.35, osrmProfile: 'driving' },
  on_foot: { speedKmh: 4.5, detour: 1.2, osrmProfile: 'walking' },
};
