import { ymd } from './iso-date.ts';

export interface ParisLocalTime {
  /** YYYY-MM-DD in Europe/Paris. */
  date: string;
  hour: number;
  minute: number;
}

// Built once: constructing an Intl formatter costs far more than using it. hourCycle h23 avoids
// "24" for midnight, which some ICU versions print with hour12: false.
const PARIS = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Wall-clock date and time in Paris for an instant, DST included, whatever the server's zone. */
export function parisLocalTime(instant: Date): ParisLocalTime {
  if (Number.isNaN(instant.getTime())) throw new RangeError('invalid instant');
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, number>> = {};
  for (const part of PARIS.formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const { year = 0, month = 0, day = 0, hour = 0, minute = 0 } = parts;
  return { date: ymd(year, month, day), hour, minute };
}

export function parisToday(now: Date): string {
  return parisLocalTime(now).date;
}
