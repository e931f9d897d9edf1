import type { PricingZone } from '../coverage/zones.ts';
import { distanceMetres, type GeoPoint } from '../places/location.ts';
import type { ServiceCode } from '../pricing/services.ts';
import {
  DEFAULT_STOP_DISTANCE_M,
  DEFAULT_VEHICLE,
  FALLBACK_ZONE,
  type VehicleKind,
} from './emission-factors.ts';
import { DEFAULT_EMISSION_SETTINGS, type EmissionSettings, gramsPerKm } from './emission-settings.ts';

/**
 * ISO 14083 allocation of a round's emissions to what it carried (docs/emissions.md). A round is
 * one transport operation: its distance × its vehicle's factor is the operation's CO₂e, shared
 * among its deliveries by the operator's rule (EMISSION_ALLOCATION): **by parcel** (the default: an
 * order of three parcels takes three shares) or **by distance** (parcels × the direct distance from
 * the hub to the delivery, ISO 14083's distance-based allocation with the parcel for the mass). By
 * parcel, not by weight: the parcels of an urban round are light and their weights self-declared,
 * the van runs the same distance whatever they weigh, and ISO 14083 allows the count of
 * consignments as the activity unit when mass is not the limiting factor.
 */

/** A delivery stop of a round, in stop order. */
export interface RoundDelivery {
  orderId: string;
  parcels: number;
  zone: PricingZone | null;
  service: ServiceCode;
  /** Where it was delivered (the distance rule's input); null: not known. */
  point?: GeoPoint | null;
}

/** A round an order went out on (RoundDistances): its vehicle and distance when known. */
export interface RoundLeg {
  roundId: string;
  date: string;
  /** The round's vehicle kind; null: the round names no vehicle (the default one is assumed). */
  vehicle: VehicleKind | null;
  /** The round's own distance, hub to hub, metres; null: not known (the default per stop is used). */
  distanceM: number | null;
  /** Where `distanceM` comes from: driven once the round finished, else planned by the optimiser. */
  distanceSource: 'driven' | 'planned' | null;
  /** The hub it left from (its vehicle's); null: none known (a sort-code round). */
  hub?: GeoPoint | null;
  deliveries: readonly RoundDelivery[];
}

/** The decree's data levels: 1 default values … 4 values measured for the service. */
export type DataLevel = 1 | 2 | 3 | 4;

export interface OrderEmission {
  grams: number;
  dataLevel: DataLevel;
  vehicle: VehicleKind;
  /** The order's share of the distance driven, metres. */
  distanceM: number;
}

/** The default distance of one delivery stop (level 1). */
const defaultStopDistanceM = (zone: PricingZone | null, service: ServiceCode): number =>
  DEFAULT_STOP_DISTANCE_M[service][zone ?? FALLBACK_ZONE];

/** The round's distance: its own, else the default per delivery stop summed. */
export function roundDistanceM(leg: RoundLeg): number {
  if (leg.distanceM !== null) return leg.distanceM;
  return leg.deliveries.reduce((sum, d) => sum + defaultStopDistanceM(d.zone, d.service), 0);
}

/**
 * The data level (docs/emissions.md, "Data levels"): 1 default values (the default distance by zone
 * and service, or no vehicle known: the default factor); 2 the round's vehicle and its planned
 * distance; 3 its vehicle and the distance it was driven; 4 measured consumption (not produced: the
 * service measures no fuel).
 */
export function legDataLevel(leg: RoundLeg): DataLevel {
  if (leg.vehicle === null || leg.distanceM === null) return 1;
  return leg.distanceSource === 'driven' ? 3 : 2;
}

/**
 * `total` shared by `weights` in whole units that add up to `Math.round(total)` (largest
 * remainder): each takes the floor of its exact share, and the units left go to the largest
 * fractions, the earlier one first on a tie. So the orders of a round always sum to the round.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const whole = Math.round(total);
  const exact = weights.map((w) => (whole * w) / sum);
  const shares = exact.map(Math.floor);
  let left = whole - shares.reduce((a, b) => a + b, 0);
  const byFraction = exact
    .map((x, i) => ({ i, fraction: x - Math.floor(x) }))
    .sort((a, b) => b.fraction - a.fraction || a.i - b.i);
  for (const { i } of byFraction) {
    if (left <= 0) break;
    shares[i]! += 1;
    left--;
  }
  return shares;
}

/** The round's CO₂e, grams, unrounded: distance (km) × the vehicle's factor (g/km). */
const roundGrams = (leg: RoundLeg, settings: EmissionSettings): number =>
  (roundDistanceM(leg) / 1000) * gramsPerKm(leg.vehicle ?? DEFAULT_VEHICLE, settings);

/**
 * Each delivery's weight in the round: its parcels, or under the distance rule its parcels × the
 * direct distance from the hub (metres). A round whose hub or any delivery's place is unknown, or
 * whose deliveries are all at the hub, falls back on parcels: a partial weighting would favour the
 * deliveries without a place.
 */
function allocationWeights(leg: RoundLeg, rule: EmissionSettings['allocation']): number[] {
  const parcels = leg.deliveries.map((d) => d.parcels);
  const hub = leg.hub;
  if (rule === 'parcel' || !hub || leg.deliveries.some((d) => !d.point)) return parcels;
  const weights = leg.deliveries.map((d) => d.parcels * distanceMetres(hub, d.point!));
  return weights.some((w) => w > 0) ? weights : parcels;
}

/**
 * An order's CO₂e: its share of each round it went out on (a failed attempt's round counts: the
 * parcel rode it), or, on no round at all, the default distance of one stop with the default
 * vehicle (level 1). The data level is the weakest of its rounds'.
 */
export function orderEmission(
  order: { orderId: string; zone: PricingZone | null; service: ServiceCode },
  legs: readonly RoundLeg[],
  settings: EmissionSettings = DEFAULT_EMISSION_SETTINGS,
): OrderEmission {
  const mine = legs.filter((leg) => leg.deliveries.some((d) => d.orderId === order.orderId));
  if (mine.length === 0) {
    const distanceM = defaultStopDistanceM(order.zone, order.service);
    return {
      grams: Math.round((distanceM / 1000) * gramsPerKm(DEFAULT_VEHICLE, settings)),
      dataLevel: 1,
      vehicle: DEFAULT_VEHICLE,
      distanceM,
    };
  }
  let grams = 0;
  let distanceM = 0;
  let dataLevel: DataLevel = 4;
  for (const leg of mine) {
    const index = leg.deliveries.findIndex((d) => d.orderId === order.orderId);
    const weights = allocationWeights(leg, settings.allocation);
    grams += allocate(roundGrams(leg, settings), weights)[index]!;
    distanceM += allocate(roundDistanceM(leg), weights)[index]!;
    dataLevel = Math.min(dataLevel, legDataLevel(leg)) as DataLevel;
  }
  const last = mine[mine.length - 1]!;
  return { grams, dataLevel, vehicle: last.vehicle ?? DEFAULT_VEHICLE, distanceM };
}
