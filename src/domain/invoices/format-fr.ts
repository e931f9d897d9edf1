import { isIsoDate } from '../calendar/iso-date.ts';
import { parisToday } from '../calendar/paris-time.ts';

/**
 * French number and date spelling for printed invoices. Hand-written rather than Intl: Intl's fr-FR
 * output uses narrow no-break spaces (U+202F) that the PDF's built-in Helvetica cannot draw, and its
 * exact spacing varies between ICU builds, which would make the PDF differ from one Node to another.
 */

/** 123456 → "1 234,56 €" (plain spaces); negative amounts (credits) as "-1 234,56 €". */
export function formatEurosFr(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  const abs = Math.abs(cents);
  const euros = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ' ');
  const fraction = String(abs % 100).padStart(2, '0');
  return `${cents < 0 ? '-' : ''}${euros},${fraction} €`;
}

/** "2026-12-31" → "31/12/2026". */
export function formatDateFr(isoDate: string): string {
  if (!isIsoDate(isoDate)) throw new RangeError(`not a calendar date (YYYY-MM-DD): ${isoDate}`);
  return `${isoDate.slice(8, 10)}/${isoDate.slice(5, 7)}/${isoDate.slice(0, 4)}`;
}

/** The Paris calendar date of an instant, as people in France write it. */
export function formatParisDateFr(instant: Date): string {
  return formatDateFr(parisToday(instant));
}
