import { isPublicHoliday } from './holidays.ts';
import { addDays, dayOfWeek } from './iso-date.ts';

/** Monday to Friday and not a French public holiday (SPEC §7). */
export function isBusinessDay(date: string): boolean {
  const weekday = dayOfWeek(date);
  return weekday !== 0 && weekday !== 6 && !isPublicHoliday(date);
}

/** The first business day strictly after `date`. */
export function nextBusinessDay(date: string): string {
  let day = addDays(date, 1);
  while (!isBusinessDay(day)) day = addDays(day, 1);
  return day;
}

/**
 * The n-th business day after the first business day on or after `date`: n = 0 is `date` itself
 * when it is a business day, else the next one. Rolling forward first keeps the result strictly
 * increasing in n, whatever day the count starts on.
 */
export function addBusinessDays(date: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`business days must be an integer ≥ 0: ${n}`);
  let day = isBusinessDay(date) ? date : nextBusinessDay(date);
  for (let i = 0; i < n; i++) day = nextBusinessDay(day);
  return day;
}
