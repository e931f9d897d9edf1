import type { GeocodeAnswer, GeocodeCandidate, Geocoder, GeocodeType } from '../../domain/places/ports.ts';
import { backoffMs, breaker, pace, retryAfterMs, sleep } from './pacing.ts';

/**
 * The Base Adresse Nationale's geocoding API (`GET /search/?q=…`, api-adresse.data.gouv.fr) or a
 * self-hosted addok (the engine behind it, same endpoint and answers): GeoCodeJSON, a
 * FeatureCollection whose features carry `properties.score`, `type` (housenumber, street, locality,
 * municipality), `label`, `postcode`, `citycode`, `city` and a `[lng, lat]` point.
 *
 * Its documented limit is 50 requests a second per client address (the 51st is refused, 429, and
 * every request after it while the client keeps above the limit and for 5 seconds more): requests
 * are paced under GEOCODER_RATE_PER_SECOND for the whole process, a 429's Retry-After pauses them
 * all, 5xx and lost connections are retried with backoff while the caller's deadline allows, and
 * after 5 consecutive failures nothing is sent for 30 s (answering `down` at once).
 */
export interface BanGeocoderOptions {
  /** `https://api-adresse.data.gouv.fr` or an addok's `http://addok:7878` (no trailing slash needed). */
  baseUrl: string;
  /** One request's timeout, ms (the caller's deadline may cut it shorter). */
  timeoutMs: number;
  ratePerSecond: number;
  /** Told once when the geocoder stops answering, and once when it answers again. */
  log?: (message: string) => void;
  now?: () => number;
}

/** BAN refuses a `q` outside 3–200 characters or not starting with a letter or a digit (400). */
const MAX_QUERY = 200;
const MIN_QUERY = 3;
const CANDIDATES = 5;
const MAX_ATTEMPTS = 4;
const TYPES: ReadonlySet<string> = new Set(['housenumber', 'street', 'locality', 'municipality']);

/** The address as BAN takes it: spaces collapsed, from its first letter or digit, cut at a word under 200. */
export function banQuery(address: string): string | null {
  let q = address.normalize('NFC').replace(/\s+/g, ' ').trim();
  q = q.replace(/^[^\p{L}\p{N}]+/u, '');
  if (q.length > MAX_QUERY) {
    const cut = q.slice(0, MAX_QUERY + 1);
    const space = cut.lastIndexOf(' ');
    q = (space > MIN_QUERY ? cut.slice(0, space) : cut.slice(0, MAX_QUERY)).trim();
  }
  return q.length >= MIN_QUERY ? q : null;
}

/** The features of a GeoCodeJSON answer the service can use, best first (the engine's order). */
export function candidatesOf(body: unknown): GeocodeCandidate[] | null {
  const collection = body as { type?: unknown; features?: unknown };
  if (collection?.type !== 'FeatureCollection' || !Array.isArray(collection.features)) return null;
  const candidates: GeocodeCandidate[] = [];
  for (const feature of collection.features as Array<Record<string, unknown>>) {
    const p = (feature?.properties ?? {}) as Record<string, unknown>;
    const coordinates = (feature?.geometry as { coordinates?: unknown } | undefined)?.coordinates;
    if (!Array.isArray(coordinates) || coordinates.length < 2) continue;
    const [lng, lat] = coordinates as [unknown, unknown];
    if (typeof lat !== 'number' || typeof lng !== 'number' || Math.abs(lat) > 90 || Math.abs(lng) > 180)
      continue;
    if (typeof p.score !== 'number' || typeof p.type !== 'string' || !TYPES.has(p.type)) continue;
    const text = (x: unknown) => (typeof x === 'string' && x !== '' ? x : null);
    candidates.push({
      point: { lat, lng },
      score: Math.max(0, Math.min(1, p.score)),
      type: p.type as GeocodeType,
      label: text(p.label) ?? '',
      postcode: text(p.postcode),
      citycode: text(p.citycode),
      city: text(p.city),
    });
  }
  return candidates;
}

export function banGeocoder(options: BanGeocoderOptions): Geocoder {
  const now = options.now ?? Date.now;
  const base = options.baseUrl.replace(/\/+$/, '');
  const turns = pace(options.ratePerSecond, now);
  const circuit = breaker({ failures: 5, pauseMs: 30_000 }, now);
  let lastRejectionLog = 0;

  const failure = (reason: string) => {
    if (circuit.failed())
      options.log?.(
        `geocoder ${base} unavailable (${reason}): addresses are placed at their postcode and checked later`,
      );
  };
  const success = () => {
    if (circuit.open) options.log?.(`geocoder ${base} answers again`);
    circuit.succeeded();
  };

  return {
    async search(address, deadline) {
      const q = banQuery(address);
      if (q === null) return { status: 'rejected' };
      if (!circuit.allows()) return { status: 'down' };
      const url = `${base}/search/?${new URLSearchParams({ q, limit: String(CANDIDATES), autocomplete: '0' })}`;
      let last: Exclude<GeocodeAnswer['status'], 'found'> | null = null;
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        if (!(await turns.turn(deadline - 50))) return { status: last ?? 'throttled' };
        const left = deadline - now();
        if (left <= 0) return { status: 'timeout' };
        let response: Response;
        try {
          response = await fetch(url, {
            headers: { accept: 'application/json' },
            signal: AbortSignal.timeout(Math.min(options.timeoutMs, left)),
          });
        } catch (err) {
          const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
          failure(timedOut ? 'timeout' : (err as Error).message);
          last = timedOut ? 'timeout' : 'down';
          if (timedOut || circuit.open) return { status: last };
          await sleep(Math.min(backoffMs(attempt), Math.max(0, deadline - now())));
          continue;
        }
        if (response.ok) {
          const candidates = candidatesOf(await response.json().catch(() => null));
          if (candidates === null) {
            failure('an answer that is not GeoCodeJSON');
            return { status: 'error' };
          }
          success();
          return { status: 'found', candidates };
        }
        await response.body?.cancel().catch(() => {});
        if (response.status === 400 || response.status === 413) {
          // Our query, not the geocoder: not a failure of the engine.
          success();
          if (now() - lastRejectionLog > 60_000) {
            lastRejectionLog = now();
            options.log?.(`geocoder ${base} refused a query (${response.status}): the address is flagged`);
          }
          return { status: 'rejected' };
        }
        const wait = retryAfterMs(response.headers.get('retry-after'), now());
        if (response.status === 429) {
          // Everyone waits: the limit is the client address's, not this request's. A little past
          // the time given, so that the first request after it does not land on its edge.
          turns.pauseUntil(now() + (wait ?? 5_000) + 100);
          last = 'throttled';
          continue;
        }
        failure(`HTTP ${response.status}`);
        last = 'error';
        if (circuit.open) return { status: 'down' };
        const delay = wait ?? backoffMs(attempt);
        if (now() + delay >= deadline) return { status: 'error' };
        await sleep(delay);
      }
      return { status: last ?? 'error' };
    },
  };
}
