import { PRICING_ZONES, type PricingZone } from '../coverage/zones.ts';
import { findBand, type GridIndex } from './grid.ts';
import type { ServiceCode } from './services.ts';
import { formatWeight, UNIT_TYPES, type UnitType } from './units.ts';

/**
 * A combination a complete grid would price and this one does not: no price for `service` to
 * `zone` for a `unitType` unit of `maxWeightGrams` — the heaviest unit of a band the grid has for
 * that unit type in some service or zone.
 */
export interface GridHole {
  service: ServiceCode;
  zone: PricingZone;
  unitType: UnitType;
  maxWeightGrams: number;
}

/**
 * The holes of a grid (SPEC §7): for each service it offers, each zone, each unit type it prices
 * for any service, and each weight band it has for that unit type anywhere, the combinations with
 * no price. Checked by pricing a unit of the band's weight rather than by looking for that exact
 * band: a service whose own bands are cut differently (2 kg then 30 kg, where another has 5 kg)
 * still prices every weight up to its heaviest band, so it has no hole there.
 *
 * A band covers every weight up to its maximum, so a request meets a hole exactly when some
 * offered service has no band that heavy: the band maxima are the only weights worth checking.
 * Such a request is answered `available: false` (see quoteRates).
 */
export function findGridHoles(index: GridIndex): GridHole[] {
  const weightsByUnit = new Map<UnitType, Set<number>>();
  for (const row of index.rows) {
    const weights = weightsByUnit.get(row.unitType) ?? new Set<number>();
    weights.add(row.maxWeightGrams);
    weightsByUnit.set(row.unitType, weights);
  }
  const holes: GridHole[] = [];
  for (const service of offeredServices(index)) {
    for (const unitType of UNIT_TYPES) {
      const weights = [...(weightsByUnit.get(unitType) ?? [])].sort((a, b) => a - b);
      for (const zone of PRICING_ZONES) {
        for (const maxWeightGrams of weights) {
          if (!findBand(index, { service, zone, unitType, weightGrams: maxWeightGrams }))
            holes.push({ service, zone, unitType, maxWeightGrams });
        }
      }
    }
  }
  return holes;
}

/** The services a grid offers, fastest first: those with at least one row. */
export function offeredServices(index: GridIndex): readonly ServiceCode[] {
  return index.services;
}

/**
 * Holes in a few lines for people: one per service × unit type × set of zones, with the bands
 * missing there, e.g. `express pallet in paris, petite_couronne: no price up to 300 kg, 500 kg`.
 */
export function summariseGridHoles(holes: readonly GridHole[]): string[] {
  const zonesByBand = new Map<string, PricingZone[]>();
  for (const hole of holes) {
    const key = `${hole.service}|${hole.unitType}|${hole.maxWeightGrams}`;
    const zones = zonesByBand.get(key);
    if (zones) zones.push(hole.zone);
    else zonesByBand.set(key, [hole.zone]);
  }
  const bandsByGroup = new Map<string, number[]>();
  for (const [key, zones] of zonesByBand) {
    const [service, unitType, grams] = key.split('|');
    const group = `${service} ${unitType} in ${zones.length === PRICING_ZONES.length ? 'every zone' : zones.join(', ')}`;
    const bands = bandsByGroup.get(group);
    if (bands) bands.push(Number(grams));
    else bandsByGroup.set(group, [Number(grams)]);
  }
  return [...bandsByGroup].map(
    ([group, bands]) => `${group}: no price for units up to ${bands.map(formatWeight).join(', ')}`,
  );
}
