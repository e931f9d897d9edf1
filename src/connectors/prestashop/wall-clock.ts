/** PrestaShop's dates: the shop's wall-clock time as `YYYY-MM-DD HH:MM:SS`, without an offset. */

const FORMATS = new Map<string, Intl.DateTimeFormat>();

/** The default when a shop's PS_TIMEZONE is unknown or not a zone Node knows: most of ours are French. */
const FALLBACK_ZONE = 'Europe/Paris';

function formatFor(timeZone: string | null): Intl.DateTimeFormat {
  const zone = timeZone ?? FALLBACK_ZONE;
  let format = FORMATS.get(zone);
  if (format) return format;
  try {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  } catch {
    return formatFor(null);
  }
  FORMATS.set(zone, format);
  return format;
}

/** `at` as the shop's wall-clock time, the format its date filters compare. */
export function wallClock(at: Date, timeZone: string | null): string {
  const parts = Object.fromEntries(
    formatFor(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** A wall-clock time moved by `seconds` (the poll's overlap), without knowing the zone's offset. */
export function shiftWallClock(wall: string, seconds: number): string {
  const ms = Date.parse(`${wall.replace(' ', 'T')}Z`) + seconds * 1000;
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
