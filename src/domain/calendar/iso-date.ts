import { AppError } from '../../errors.ts';

/**
 * Calendar dates are `YYYY-MM-DD` strings (SPEC §2), days in Europe/Paris. Arithmetic goes through
 * UTC midnight, where every day is 24 hours long, so no DST rule can shift a date.
 */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [, y, m, d] = match;
  return formatUtcDate(new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)))) === value;
}

/** Milliseconds of the date's UTC midnight; throws on anything but a real calendar date. */
function isoDateToUtcMs(date: string): number {
  if (!isIsoDate(date)) throw new AppError('invalid_request', `not a calendar date (YYYY-MM-DD): "${date}"`);
  return Date.parse(`${date}T00:00:00Z`);
}

function formatUtcDate(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return formatUtcDate(new Date(isoDateToUtcMs(date) + days * DAY_MS));
}

/** 0 = Sunday … 6 = Saturday. */
export function dayOfWeek(date: string): number {
  return new Date(isoDateToUtcMs(date)).getUTCDay();
}

export function ymd(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
