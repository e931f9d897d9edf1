/**
 * WooCommerce answers every date twice: `date_x` in the site's timezone and `date_x_gmt` in UTC,
 * both as `YYYY-MM-DDTHH:MM:SS` without an offset. The query filters (after, before, modified_after,
 * modified_before) compare against the site-time column unless `dates_are_gmt=true`; a naive value is
 * read in that column's zone. (The fake reads a value that carries its own offset as an instant.)
 */

const WALL = new Map<string, Intl.DateTimeFormat>();

function wallFormat(timeZone: string): Intl.DateTimeFormat {
  let format = WALL.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    WALL.set(timeZone, format);
  }
  return format;
}

/** The wall-clock time of `ms` in `timeZone`, as WooCommerce writes it. */
export function wallTime(ms: number, timeZone: string): string {
  const parts = Object.fromEntries(
    wallFormat(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

export const gmtTime = (ms: number) => wallTime(ms, 'UTC');

function offsetMs(ms: number, timeZone: string): number {
  return Date.parse(`${wallTime(ms, timeZone)}Z`) - Math.floor(ms / 1000) * 1000;
}

/** The instant of a naive wall-clock time in `timeZone`. */
function naiveToInstant(naive: string, timeZone: string): number {
  const asUtc = Date.parse(`${naive.replace(' ', 'T')}Z`);
  return asUtc - offsetMs(asUtc - offsetMs(asUtc, timeZone), timeZone);
}

/** WordPress's rest_parse_date() pattern: RFC 3339 with an optional offset. */
const REST_DATE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** A query date as an instant (null when WordPress would answer "Invalid date."). */
export function parseQueryDate(value: string, columnTimeZone: string): number | null {
  const match = REST_DATE.exec(value);
  if (!match) return null;
  if (match[1]) return Date.parse(value.replace(' ', 'T'));
  return naiveToInstant(value, columnTimeZone);
}
