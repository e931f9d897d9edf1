import { AppError } from '../../errors.ts';
import type { PricingZone } from '../coverage/zones.ts';
import { vatCents } from './money.ts';
import { SERVICE_CODES, type ServiceCode } from './services.ts';
import { formatWeight, type UnitType } from './units.ts';

/** One weight band of a price grid (SPEC §7); prices excl. tax, in cents. */
export interface GridRow {
  service: ServiceCode;
  zone: PricingZone;
  unitType: UnitType;
  /** Heaviest unit (grams) this band accepts. */
  maxWeightGrams: number;
  firstUnitCents: number;
  extraUnitCents: number;
}

export type Grid = readonly GridRow[];

export interface PriceQuery {
  service: ServiceCode;
  zone: PricingZone;
  unitType: UnitType;
  /** Per unit. */
  weightGrams: number;
  quantity: number;
}

export interface Price {
  exclTaxCents: number;
  vatCents: number;
  inclTaxCents: number;
}

/** Bands grouped by service × zone × unit type, lightest first: a lookup reads one short list. */
export interface GridIndex {
  readonly rows: Grid;
  readonly bands: ReadonlyMap<string, readonly GridRow[]>;
  /** The services with at least one row, fastest first: what the grid offers. */
  readonly services: readonly ServiceCode[];
}

const keyOf = (service: ServiceCode, zone: PricingZone, unitType: UnitType): string =>
  `${service}|${zone}|${unitType}`;

export function indexGrid(grid: Grid): GridIndex {
  const bands = new Map<string, GridRow[]>();
  for (const row of grid) {
    const key = keyOf(row.service, row.zone, row.unitType);
    const list = bands.get(key);
    if (list) list.push(row);
    else bands.set(key, [row]);
  }
  for (const list of bands.values()) list.sort((a, b) => a.maxWeightGrams - b.maxWeightGrams);
  const present = new Set(grid.map((row) => row.service));
  return { rows: grid, bands, services: SERVICE_CODES.filter((service) => present.has(service)) };
}

/** The lightest band that takes a unit of this weight, or undefined. */
export function findBand(index: GridIndex, query: Omit<PriceQuery, 'quantity'>): GridRow | undefined {
  const bands = index.bands.get(keyOf(query.service, query.zone, query.unitType));
  return bands?.find((band) => band.maxWeightGrams >= query.weightGrams);
}

/**
 * Price of `quantity` units of one weight: the band's first-unit price plus its extra-unit price for
 * each further unit; VAT per `vatCents`. null when the grid has no band for this combination.
 */
export function priceFor(index: GridIndex, query: PriceQuery): Price | null {
  if (!Number.isSafeInteger(query.weightGrams) || query.weightGrams <= 0) {
    throw new RangeError(`weightGrams must be a positive integer: ${query.weightGrams}`);
  }
  if (!Number.isSafeInteger(query.quantity) || query.quantity < 1) {
    throw new RangeError(`quantity must be an integer ≥ 1: ${query.quantity}`);
  }
  const band = findBand(index, query);
  if (!band) return null;
  const exclTaxCents = band.firstUnitCents + band.extraUnitCents * (query.quantity - 1);
  const vat = vatCents(exclTaxCents);
  return { exclTaxCents, vatCents: vat, inclTaxCents: exclTaxCents + vat };
}

/**
 * For orders (SPEC §5): the price, or 422 `unpriceable` saying what the grid lacks, so the brand
 * knows whether to change the service, the unit type or the weight.
 */
export function requirePrice(index: GridIndex, query: PriceQuery): Price {
  const price = priceFor(index, query);
  if (price) return price;
  const bands = index.bands.get(keyOf(query.service, query.zone, query.unitType)) ?? [];
  const heaviest = bands.at(-1);
  const what = `${query.service} ${query.unitType} to ${query.zone}`;
  const message = heaviest
    ? `no price for ${what} weighing ${formatWeight(query.weightGrams)} per unit (at most ${formatWeight(heaviest.maxWeightGrams)})`
    : `no price for ${what} in this grid`;
  throw new AppError('unpriceable', message);
}
