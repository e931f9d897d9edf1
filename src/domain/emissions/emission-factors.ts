import type { PricingZone } from '../coverage/zones.ts';
import type { ServiceCode } from '../pricing/services.ts';

/**
 * The emission factors of the ministry/ADEME method (Code des transports D1431-1 ff., the
 * "Information GES des prestations de transport" guide, ADEME 2018), well to wheel: the energy's
 * upstream (extraction, refining or generation, distribution) and its use. A vehicle kind's factor
 * is its energy use per kilometre × the energy's factor; both are written out with their source so
 * an auditor can redo the product (docs/emissions.md, "Factors").
 *
 * The kinds are the fleet's (`vehicles.kind`, issue 37): `van` is a diesel light commercial vehicle.
 */
export const VEHICLE_KINDS = ['van', 'electric_van', 'cargo_bike', 'on_foot'] as const;
export type VehicleKind = (typeof VEHICLE_KINDS)[number];

export const isVehicleKind = (value: unknown): value is VehicleKind =>
  (VEHICLE_KINDS as readonly unknown[]).includes(value);

/**
 * An energy's emission factor with where it comes from: the document and the name of the factor in
 * it, its unit and year, and its two phases (upstream: extraction, refining or generation,
 * distribution; use: combustion in the vehicle), so an auditor finds the same number.
 */
export interface EnergyFactor {
  unit: 'l' | 'kWh';
  /** g CO₂e per unit, well to wheel: upstream + use. */
  gramsPerUnit: number;
  upstreamGramsPerUnit: number;
  useGramsPerUnit: number;
  /** The published name of the factor, as the source spells it. */
  name: string;
  /** The document that publishes it, and its year. */
  source: string;
  year: number;
}

/**
 * The energies' factors: those fixed for this very information by the arrêté of 26 April 2017 taken
 * for the application of décret 2017-639 (its annex, "valeurs des facteurs d'émission des sources
 * d'énergie"), which the decree's method uses; compared with the ADEME Base Carbone's entries in
 * docs/emissions.md ("Factors").
 */
export const ENERGY_FACTORS = {
  diesel_b7: {
    unit: 'l',
    gramsPerUnit: 3170,
    upstreamGramsPerUnit: 660,
    useGramsPerUnit: 2510,
    name: 'Gazole routier',
    source:
      "Arrêté du 26 avril 2017 pris pour l'application du décret n° 2017-639 (information GES des prestations de transport), annexe",
    year: 2017,
  },
  electricity_fr: {
    unit: 'kWh',
    gramsPerUnit: 48,
    upstreamGramsPerUnit: 48,
    useGramsPerUnit: 0,
    name: 'Électricité consommée en France métropolitaine (hors Corse)',
    source:
      "Arrêté du 26 avril 2017 pris pour l'application du décret n° 2017-639 (information GES des prestations de transport), annexe",
    year: 2017,
  },
  none: {
    unit: 'kWh',
    gramsPerUnit: 0,
    upstreamGramsPerUnit: 0,
    useGramsPerUnit: 0,
    name: 'no energy (muscle power is outside the method)',
    source: 'Code des transports D1431-1 ff.: only the energy the vehicle uses counts',
    year: 2017,
  },
} as const satisfies Record<string, EnergyFactor>;

export interface VehicleFactor {
  energy: keyof typeof ENERGY_FACTORS;
  /** Energy use per 100 km in urban delivery (litres or kWh; charging losses included). */
  per100Km: number;
  source: string;
}

/** What each vehicle kind uses per 100 km. */
export const VEHICLE_FACTORS: Readonly<Record<VehicleKind, VehicleFactor>> = {
  van: {
    energy: 'diesel_b7',
    per100Km: 10,
    source:
      'assumption: VUL ≤ 3,5 t gazole in urban multi-drop delivery, 10 l/100 km (method: ADEME, Information GES des prestations de transport, guide 2018)',
  },
  electric_van: {
    energy: 'electricity_fr',
    per100Km: 25,
    source: 'assumption: electric VUL ≤ 3,5 t, 25 kWh/100 km at the plug (charging losses included)',
  },
  cargo_bike: {
    energy: 'electricity_fr',
    per100Km: 1.5,
    source: 'assumption: electrically assisted cargo bike, 1,5 kWh/100 km at the plug',
  },
  on_foot: { energy: 'none', per100Km: 0, source: 'walking: no energy the method counts' },
};

/**
 * Level-1 defaults (no round, or a round without its own distance): the distance a round drives per
 * delivery stop, by zone and service, in metres. Urban multi-drop rounds in Paris drive 1–2 km
 * between stops; the suburbs spread them out; an express parcel shares its round with few others.
 */
export const DEFAULT_STOP_DISTANCE_M: Readonly<Record<ServiceCode, Readonly<Record<PricingZone, number>>>> = {
  economy: { paris: 1500, petite_couronne: 3000, grande_couronne: 6000 },
  standard: { paris: 1500, petite_couronne: 3000, grande_couronne: 6000 },
  express: { paris: 4000, petite_couronne: 8000, grande_couronne: 15000 },
};

/** An order without a zone (none is delivered without one; a fix by hand) counts as the outer ring. */
export const FALLBACK_ZONE: PricingZone = 'grande_couronne';

/** The vehicle assumed when the round names none: the most emitting, as default values must be. */
export const DEFAULT_VEHICLE: VehicleKind = 'van';
