import getJoursFeries from '@socialgouv/jours-feries';
import { ymd } from './iso-date.ts';

const cache = new Map<number, ReadonlySet<string>>();

/**
 * Metropolitan French public holidays of a year as YYYY-MM-DD (without the Alsace-Moselle extras:
 * Île-de-France doesn't observe them). Computed by the package, cached per year.
 */
export function publicHolidays(year: number): ReadonlySet<string> {
  let days = cache.get(year);
  if (!days) {
    days = new Set(Object.values(getJoursFeries(year, { alsace: false })).map(localDate));
    cache.set(year, days);
  }
  return days;
}

export function isPublicHoliday(date: string): boolean {
  return publicHolidays(Number(date.slice(0, 4))).has(date);
}

/**
 * The package builds dates at local midnight and moves Easter-based ones by multiples of 24 h, so
 * in a server zone with a DST change in between they land an hour off. Reading the local date at
 * local noon absorbs that.
 */
function localDate(day: Date): string {
  const noon = new Date(day.getTime() + 12 * 3_600_000);
  return ymd(noon.getFullYear(), noon.getMonth() + 1, noon.getDate());
}
