import { ENERGY_FACTORS, VEHICLE_FACTORS, type VehicleKind } from './emission-factors.ts';

/**
 * The operator's emission settings (EMISSION_* in src/config.ts; docs/emissions.md, "Settings"): the
 * energies' factors with their sources, the vehicles' energy use and the allocation rule. The
 * defaults are the arrêté of 26 April 2017's factors and this deployment's energy uses, parcel
 * allocation. Every figure names the method it was computed with (`methodId`): a change of setting
 * is a new method, and `dlv emissions recompute` restates the months.
 */

/** ISO 14083 allocation of a round to its deliveries: by parcel, or by parcel × direct distance from the hub. */
export const ALLOCATION_RULES = ['parcel', 'distance'] as const;
type AllocationRule = (typeof ALLOCATION_RULES)[number];

/** The kinds that use energy (walking uses none the method counts). */
export const POWERED_KINDS = ['van', 'electric_van', 'cargo_bike'] as const;
type PoweredKind = (typeof POWERED_KINDS)[number];

export interface EmissionSettings {
  allocation: AllocationRule;
  /** Diesel (gazole routier), g CO₂e per litre well to wheel, and where that value comes from. */
  diesel: { gramsPerLitre: number; source: string };
  /** The French grid's electricity, g CO₂e per kWh well to wheel, and its source. */
  grid: { gramsPerKwh: number; source: string };
  /** Litres (van) or kWh (electric) per 100 km. */
  energyUse: Readonly<Record<PoweredKind, number>>;
}

export const DEFAULT_EMISSION_SETTINGS: Readonly<EmissionSettings> = Object.freeze({
  allocation: 'parcel',
  diesel: {
    gramsPerLitre: ENERGY_FACTORS.diesel_b7.gramsPerUnit,
    source: `${ENERGY_FACTORS.diesel_b7.name}, ${ENERGY_FACTORS.diesel_b7.source}`,
  },
  grid: {
    gramsPerKwh: ENERGY_FACTORS.electricity_fr.gramsPerUnit,
    source: `${ENERGY_FACTORS.electricity_fr.name}, ${ENERGY_FACTORS.electricity_fr.source}`,
  },
  energyUse: {
    van: VEHICLE_FACTORS.van.per100Km,
    electric_van: VEHICLE_FACTORS.electric_van.per100Km,
    cargo_bike: VEHICLE_FACTORS.cargo_bike.per100Km,
  },
});

/** g CO₂e per kilometre of a vehicle kind under these settings, well to wheel (unrounded). */
export function gramsPerKm(
  kind: VehicleKind,
  settings: EmissionSettings = DEFAULT_EMISSION_SETTINGS,
): number {
  if (kind === 'on_foot') return 0;
  const perUnit = kind === 'van' ? settings.diesel.gramsPerLitre : settings.grid.gramsPerKwh;
  return (settings.energyUse[kind] / 100) * perUnit;
}

const sameFactors = (a: EmissionSettings, b: EmissionSettings) =>
  a.diesel.gramsPerLitre === b.diesel.gramsPerLitre &&
  a.grid.gramsPerKwh === b.grid.gramsPerKwh &&
  POWERED_KINDS.every((k) => a.energyUse[k] === b.energyUse[k]);

/**
 * The method's identifier, stored with each figure (`co2e.method`, at most 80 characters): the
 * default factor table's name, or the operator's values written out, with the allocation rule.
 */
export function methodId(settings: EmissionSettings = DEFAULT_EMISSION_SETTINGS): string {
  const base = sameFactors(settings, DEFAULT_EMISSION_SETTINGS)
    ? 'info-ges-2017'
    : `op-d${settings.diesel.gramsPerLitre}-e${settings.grid.gramsPerKwh}-u${POWERED_KINDS.map((k) => settings.energyUse[k]).join('_')}`;
  return `${base}-${settings.allocation}-v2`;
}

const fr = (n: number) => String(n).replace('.', ',');

/**
 * The method as the decree wants it told to the client (the method, its data levels and its
 * sources), on the monthly statement. French: the statement is a French legal document.
 */
export function methodText(settings: EmissionSettings = DEFAULT_EMISSION_SETTINGS): string {
  const allocation =
    settings.allocation === 'parcel'
      ? 'au prorata du nombre de colis'
      : "au prorata du nombre de colis × la distance directe du dépôt à l'adresse de livraison";
  return [
    "Information GES des prestations de transport (Code des transports, art. L1431-3 et D1431-1 à D1431-23) : quantité de gaz à effet de serre émise, en équivalent CO₂ (CO₂e), du puits à la roue (amont de l'énergie inclus) : en kilogrammes (kg CO₂e) sur ce relevé, en grammes (g CO₂e) par commande et sur les factures.",
    `Méthode : distance de chaque tournée (la distance parcourue, arrêts dans l'ordre des livraisons, une fois la tournée terminée ; sinon la distance planifiée ; sinon une valeur par défaut par arrêt selon la zone et le service) × facteur d'émission du type de véhicule, réparti entre les livraisons de la tournée ${allocation} (ISO 14083). Avant toute tournée : distance par défaut d'un arrêt, véhicule utilitaire gazole (niveau 1).`,
    `Facteurs : gazole ${fr(settings.diesel.gramsPerLitre / 1000)} kg CO₂e/l (${settings.diesel.source}) ; électricité ${fr(settings.grid.gramsPerKwh / 1000)} kg CO₂e/kWh (${settings.grid.source}). Consommations : utilitaire gazole ${fr(settings.energyUse.van)} l/100 km, utilitaire électrique ${fr(settings.energyUse.electric_van)} kWh/100 km, vélo-cargo ${fr(settings.energyUse.cargo_bike)} kWh/100 km.`,
    'Niveaux de données : niveau 1, valeurs par défaut (distance par zone et service, ou véhicule inconnu) ; niveau 2, véhicule et distance planifiée de la tournée ; niveau 3, véhicule et distance parcourue ; niveau 4, consommation mesurée (non produit).',
    `Identifiant de méthode : ${methodId(settings)}.`,
  ].join('\n');
}
