import { SERVICES, type ServiceCode } from '../pricing/services.ts';
import { boundedMemo } from '../shared/bounded-memo.ts';
import { addBusinessDays, isBusinessDay, nextBusinessDay } from './business-days.ts';
import { parisLocalTime } from './paris-time.ts';

/**
 * The day an order made at `now` starts counting: today in Paris if it is a business day and the
 * service's cut-off hour has not struck, else the next business day. At exactly the cut-off
 * (12:00 express, 16:00 others) the order is already late.
 */
export function startDate(service: ServiceCode, now: Date): string {
  const { date, hour } = parisLocalTime(now);
  const beforeCutoff = hour < SERVICES[service].cutoffHour;
  return beforeCutoff && isBusinessDay(date) ? date : nextBusinessDay(date);
}

// Quoting asks for the same few answers many times a second; cut-offs fall on whole hours, so an
// answer computed for one minute holds for every instant of that minute.
const memo = boundedMemo<string, string>(1000);

/** Promised delivery date (YYYY-MM-DD, Paris) for a service ordered at `now` (SPEC §7). */
export function promisedDate(service: ServiceCode, now: Date): string {
  return memo(`${service}|${Math.floor(now.getTime() / 60_000)}`, () =>
    addBusinessDays(startDate(service, now), SERVICES[service].delayBusinessDays),
  );
}
