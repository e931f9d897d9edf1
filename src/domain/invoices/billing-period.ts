import { invalidField } from '../../errors.ts';
import { addDays } from '../calendar/iso-date.ts';
import { parisLocalTime, parisToday } from '../calendar/paris-time.ts';

/**
 * Billing is by calendar month in Europe/Paris (SPEC §6): a period is `YYYY-MM`, and an order belongs
 * to the month of its creation as a Paris wall clock reads it, not as UTC does.
 */

const PERIOD = /^(2\d{3})-(0[1-9]|1[0-2])$/;
const HOUR_MS = 3_600_000;
/** Payment term printed on and computed for every issued invoice. */
const PAYMENT_TERM_DAYS = 30;

const MONTHS_FR = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
] as const;

export function billingPeriodOf(instant: Date): string {
  return parisToday(instant).slice(0, 7);
}

/** Trimmed like other user input; the year range keeps typos such as 0226-01 out of queries. */
export function parsePeriod(input: string): string {
  const value = typeof input === 'string' ? input.trim() : '';
  if (!PERIOD.test(value)) throw invalidField('month', 'must be YYYY-MM');
  return value;
}

/**
 * Half-open [start, end) in UTC: a query `created_at >= start AND created_at < end` takes exactly the
 * period's orders, whether the month is 743, 744 or 745 hours long.
 */
export function periodBounds(period: string): { start: Date; end: Date } {
  const { year, month } = splitPeriod(period);
  return { start: parisMonthStart(year, month), end: parisMonthStart(year, month + 1) };
}

/** The period the monthly job issues: the month before the current Paris month. */
export function previousPeriod(now: Date): string {
  const { year, month } = splitPeriod(billingPeriodOf(now));
  return month === 1 ? formatPeriod(year - 1, 12) : formatPeriod(year, month - 1);
}

export function nextPeriod(period: string): string {
  const { year, month } = splitPeriod(period);
  return month === 12 ? formatPeriod(year + 1, 1) : formatPeriod(year, month + 1);
}

/** Counted from the Paris calendar date of issue, so an invoice issued at 00:30 Paris time is not a day early. */
export function dueDateFor(issuedAt: Date): string {
  return addDays(parisToday(issuedAt), PAYMENT_TERM_DAYS);
}

/** "novembre 2026": how the period reads on the PDF. */
export function formatPeriodFr(period: string): string {
  const { year, month } = splitPeriod(period);
  return `${MONTHS_FR[month - 1]} ${year}`;
}

function splitPeriod(period: string): { year: number; month: number } {
  const value = parsePeriod(period);
  return { year: Number(value.slice(0, 4)), month: Number(value.slice(5, 7)) };
}

function formatPeriod(year: number, month: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}

/**
 * UTC instant of 00:00 Paris time on the 1st (month 13 = January of the next year, as Date.UTC
 * reads it). Midnight on the 1st is never inside a DST gap (changes happen on a Sunday at 02:00/03:00
 * near the month's end), so exactly one of Paris's two offsets gives it; testing both avoids
 * hard-coding the EU switching rule.
 */
function parisMonthStart(year: number, month: number): Date {
  const utcMidnight = Date.UTC(year, month - 1, 1);
  const firstDay = new Date(utcMidnight).toISOString().slice(0, 10);
  for (const offsetHours of [1, 2]) {
    const candidate = new Date(utcMidnight - offsetHours * HOUR_MS);
    const local = parisLocalTime(candidate);
    if (local.date === firstDay && local.hour === 0 && local.minute === 0) return candidate;
  }
  throw new RangeError(`no Paris midnight found for ${firstDay}`);
}
