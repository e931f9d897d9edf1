export type PricingZone = 'paris' | 'petite_couronne' | 'grande_couronne';

export const PRICING_ZONES: readonly PricingZone[] = ['paris', 'petite_couronne', 'grande_couronne'];

/** Île-de-France départements and their pricing zone (SPEC §7). */
const ZONE_BY_DEPARTEMENT: ReadonlyMap<string, PricingZone> = new Map([
  ['75', 'paris'],
  ['92', 'petite_couronne'],
  ['93', 'petite_couronne'],
  ['94', 'petite_couronne'],
  ['77', 'grande_couronne'],
  ['78', 'grande_couronne'],
  ['91', 'grande_couronne'],
  ['95', 'grande_couronne'],
]);

export const IDF_DEPARTEMENTS: readonly string[] = [...ZONE_BY_DEPARTEMENT.keys()];

/** null outside Île-de-France. */
export function zoneForDepartement(departement: string): PricingZone | null {
  return ZONE_BY_DEPARTEMENT.get(departement) ?? null;
}

export function isPricingZone(value: unknown): value is PricingZone {
  return typeof value === 'string' && (PRICING_ZONES as readonly string[]).includes(value);
}
