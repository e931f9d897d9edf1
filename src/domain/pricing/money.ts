/**
 * Money is integer cents everywhere inside the service; euros appear only at the JSON and file edges
 * (SPEC §2). These helpers are the only place where the two meet.
 */

/** French standard VAT rate, the only one deliveries carry (SPEC §6). */
export const VAT_RATE = 0.2;

/**
 * VAT on an amount excluding tax, rounded half up to the cent (half away from zero for a negative
 * amount such as a credit), computed on integers: VAT in cents = floor((excl × 20 + 50) / 100).
 * 2.47 € → 0.494 € → 0.49 €; 2.48 € → 0.496 € → 0.50 €. (At 20 % on whole cents an exact half cannot
 * occur, but the rule is stated so a future rate keeps it.) The total is excl + VAT, so order lines
 * and invoices always add up to the cent.
 */
export function vatCents(exclCents: number): number {
  assertCents(exclCents);
  const magnitude = Math.floor((Math.abs(exclCents) * 20 + 50) / 100);
  return exclCents < 0 ? -magnitude : magnitude;
}

export function inclTaxCents(exclCents: number): number {
  return exclCents + vatCents(exclCents);
}

/** 840 → 8.4: the nearest double to the decimal, which JSON prints with at most 2 decimals. */
export function centsToEuros(cents: number): number {
  assertCents(cents);
  return cents / 100;
}

const EUROS_PATTERN = /^(-)?(\d+)(?:[.,](\d{1,2}))?$/;

/**
 * Exact for amounts with at most 2 decimals, read from the number's shortest decimal form so
 * 1.15 gives 115, not 114.99…. Callers reject other amounts first (with `hasAtMostTwoDecimals`)
 * to name the field; reaching here with more decimals is a programming error.
 */
export function eurosToCents(euros: number): number {
  const cents = Number.isFinite(euros) ? parseEurosToCents(String(euros)) : null;
  if (cents === null) throw new RangeError(`not an amount in euros with at most 2 decimals: ${euros}`);
  return cents;
}

export function hasAtMostTwoDecimals(euros: number): boolean {
  return Number.isFinite(euros) && EUROS_PATTERN.test(String(euros));
}

/**
 * Text such as "8.4", "8.40", "8,40" or "-3" → cents, or null when it is not a plain decimal with at
 * most 2 decimals (grid files are typed by people; a third decimal is a mistake, never rounded away).
 */
export function parseEurosToCents(text: string): number | null {
  const match = EUROS_PATTERN.exec(text.trim());
  if (!match) return null;
  const [, minus, whole = '', fraction = ''] = match;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return minus && cents !== 0 ? -cents : cents;
}

/** "8.40": for CSV exports and messages, where a fixed two decimals reads as money. */
export function formatEuros(cents: number): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
}
