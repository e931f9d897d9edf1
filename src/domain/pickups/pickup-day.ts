import { createHash } from 'node:crypto';
import { isBusinessDay, nextBusinessDay } from '../calendar/business-days.ts';
import { isPublicHoliday } from '../calendar/holidays.ts';
import { parisLocalTime } from '../calendar/paris-time.ts';

/** SPEC §10: an order created, or a pickup asked for, before 12:00 in Paris is collected that day. */
const PICKUP_CUTOFF_HOUR = 12;

/**
 * The business day a parcel made collectable at `now` is picked up: today in Paris if it is a
 * business day and the cut-off has not struck, else the next business day. At exactly 12:00 the
 * parcel is already for the next one.
 */
export function pickupDateFor(now: Date): string {
  const key = Math.floor(now.getTime() / 60_000);
  let date = memo.get(key);
  if (date === undefined) {
    const local = parisLocalTime(now);
    date =
      local.hour < PICKUP_CUTOFF_HOUR && isBusinessDay(local.date) ? local.date : nextBusinessDay(local.date);
    if (memo.size >= 1000) memo.clear();
    memo.set(key, date);
  }
  return date;
}
// Every order creation asks: the cut-off falls on a whole hour, so one answer holds for a minute.
const memo = new Map<number, string>();

/**
 * The pickup's id, derived from what makes it one (brand, pickup address, day): an order joins it
 * by carrying this id, computed before its INSERT, with no lookup. 64 bits of SHA-256; the table's
 * primary key would refuse the unlikely collision loudly rather than merge two pickups.
 */
export function pickupIdFor(brandId: string, pickupAddress: string, date: string): string {
  const digest = createHash('sha256').update(`${brandId}\n${pickupAddress}\n${date}`).digest('hex');
  return `pck_${digest.slice(0, 16)}`;
}

/** Why a day cannot be asked for: in the past, not a business day, or today after the cut-off. */
export type UnavailableDay = 'date_in_past' | 'not_a_business_day' | 'pickup_cutoff_passed';

/** Whether a collection can still be asked for on `date` at `now` (SPEC §10); null when it can. */
export function whyUnavailable(date: string, now: Date): { code: UnavailableDay; message: string } | null {
  const local = parisLocalTime(now);
  if (date < local.date)
    return { code: 'date_in_past', message: `${date} is in the past (today is ${local.date} in Paris).` };
  if (!isBusinessDay(date)) {
    const what = isPublicHoliday(date) ? 'a French public holiday' : 'a weekend day';
    return {
      code: 'not_a_business_day',
      message: `${date} is ${what}; the next business day is ${nextBusinessDay(date)}.`,
    };
  }
  if (date === local.date && local.hour >= PICKUP_CUTOFF_HOUR) {
    return {
      code: 'pickup_cutoff_passed',
      message: `A collection today must be asked for before 12:00 (Paris); the next business day is ${nextBusinessDay(date)}.`,
    };
  }
  return null;
}

/** A pickup can be closed once no order can join it any more: from its day's cut-off on. */
export function isDue(date: string, now: Date): boolean {
  const local = parisLocalTime(now);
  return local.date > date || (local.date === date && local.hour >= PICKUP_CUTOFF_HOUR);
}

/** Default collection window (SPEC §10) and the hours a courier can come within. */
export const DEFAULT_WINDOW = { start: '14:00', end: '18:00' } as const;
const WINDOW_BOUNDS = { earliest: '08:00', latest: '19:00', minimumMinutes: 120 } as const;

const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The problem with a requested window (field and message), or null when it is acceptable. */
export function windowProblem(window: {
  start: string;
  end: string;
}): { field: string; message: string } | null {
  for (const side of ['start', 'end'] as const) {
    if (!TIME.test(window[side]))
      return { field: `window.${side}`, message: 'must be a time HH:MM (24-hour clock)' };
  }
  const { earliest, latest, minimumMinutes } = WINDOW_BOUNDS;
  if (window.start < earliest) return { field: 'window.start', message: `must be ${earliest} or later` };
  if (window.end > latest) return { field: 'window.end', message: `must be ${latest} or earlier` };
  if (minutes(window.end) - minutes(window.start) < minimumMinutes) {
    return {
      field: 'window.end',
      message: `must be at least ${minimumMinutes / 60} hours after window.start`,
    };
  }
  return null;
}

/** What makes a pickup one (SPEC §10), with its derived id: what an order joining it carries. */
export interface PickupKey {
  id: string;
  brandId: string;
  pickupAddress: string;
  date: string;
}

/** The pickup a parcel of `brandId` from `pickupAddress`, made collectable at `now`, joins. */
export function pickupKeyFor(brandId: string, pickupAddress: string, now: Date): PickupKey {
  const date = pickupDateFor(now);
  return { id: pickupIdFor(brandId, pickupAddress, date), brandId, pickupAddress, date };
}
