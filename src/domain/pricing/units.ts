import { fieldProblem, invalidField } from '../../errors.ts';

export type UnitType = 'parcel' | 'envelope' | 'bulky' | 'pallet';

export const UNIT_TYPES: readonly UnitType[] = ['parcel', 'envelope', 'bulky', 'pallet'];

export const DEFAULT_UNIT_TYPE: UnitType = 'parcel';

/** English names plus the French words operators and brands actually type (SPEC §7). */
const UNIT_ALIASES: ReadonlyMap<string, UnitType> = new Map([
  ['parcel', 'parcel'],
  ['colis', 'parcel'],
  ['envelope', 'envelope'],
  ['pli', 'envelope'],
  ['enveloppe', 'envelope'],
  ['bulky', 'bulky'],
  ['encombrant', 'bulky'],
  ['pallet', 'pallet'],
  ['palette', 'pallet'],
]);

export function parseUnitType(input: unknown): UnitType {
  const unit = typeof input === 'string' ? UNIT_ALIASES.get(input.trim().toLowerCase()) : undefined;
  if (unit === undefined) {
    throw fieldProblem('unit_type', 'unit.type');
  }
  return unit;
}

/** Anything heavier is a typo (grams typed as kilograms), not a delivery. */
export const MAX_UNIT_WEIGHT_GRAMS = 2_000_000;

const WEIGHT_PATTERN = /^(\d+)?(?:[.,](\d+))?\s*(kg|g)?$/i;

/**
 * Parses "2.5", "2.5kg", "2,5 kg", "500g", "500 g", "2 KG" or a number of kilograms into whole grams,
 * rounding up so a declared weight is never under-priced. The decimal is read digit by digit rather
 * than through floating point so "0.07" kg is 70 g, not 71.
 */
export function parseWeightGrams(input: string | number): number {
  const text = typeof input === 'number' ? numberToDecimalText(input) : input;
  const match = typeof text === 'string' ? WEIGHT_PATTERN.exec(text.trim()) : null;
  if (!match || (match[1] === undefined && match[2] === undefined)) {
    throw fieldProblem('unit_weight', 'unit.weight');
  }
  const [, whole = '0', fraction = '', unit = 'kg'] = match;
  const isKg = unit.toLowerCase() === 'kg';
  const shift = isKg ? 3 : 0;
  const wholeGrams = Number(whole + fraction.slice(0, shift).padEnd(shift, '0'));
  const remainder = /[1-9]/.test(fraction.slice(shift)) ? 1 : 0;
  const grams = wholeGrams + remainder;
  if (!(grams > 0)) throw fieldProblem('unit_weight', 'unit.weight');
  // Compared before any other arithmetic: 1e15 kg has no safe number of grams, and says too heavy.
  if (grams > MAX_UNIT_WEIGHT_GRAMS) {
    throw invalidField('unit_weight', 'must be at most 2000 kg per unit');
  }
  return grams;
}

function numberToDecimalText(value: number): string | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  // String() is the shortest exact rendering but switches to exponent form below 1e-6 and above 1e21:
  // a positive weight that small still costs one gram, one that large is caught by the maximum.
  if (value < 1e-6) return '0.000001';
  if (value >= 1e21) return String(MAX_UNIT_WEIGHT_GRAMS);
  return String(value);
}

export const MAX_QUANTITY = 1000;

/** Accepts an integer or a string of digits (CLI and CSV input). */
export function parseQuantity(input: unknown): number {
  const value = typeof input === 'string' && /^\s*\d+\s*$/.test(input) ? Number(input) : input;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_QUANTITY) {
    throw fieldProblem('quantity', 'quantity.range', { max: MAX_QUANTITY });
  }
  return value;
}

/** "2.5 kg", "500 g": for messages and the CLI. */
export function formatWeight(grams: number): string {
  return grams >= 1000 ? `${grams / 1000} kg` : `${grams} g`;
}
