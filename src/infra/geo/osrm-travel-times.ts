import type { GeoPoint } from '../../domain/places/location.ts';
import type { TravelMatrix, TravelTimes } from '../../domain/places/ports.ts';
import { estimatedMatrix } from '../../domain/places/travel-estimate.ts';
import { VEHICLE_SPECS, type VehicleProfile } from '../../domain/places/vehicles.ts';
import { backoffMs, breaker, sleep } from './pacing.ts';

/**
 * OSRM's table service (`GET /table/v1/{profile}/{lng,lat;…}?annotations=duration,distance`): the
 * durations (s) and distances (m) of the fastest routes between points, row-major. An error is a
 * 400 with `code` (`InvalidQuery`, `InvalidOptions`, `TooBig`, `NoSegment`, `NoTable`…) and
 * `message`; a cell without a route is null. osrm-routed refuses more than `--max-table-size`
 * (default 100) sources × destinations squared: a larger matrix is asked in blocks.
 *
 * Any failure (a 400, a 5xx after one retry, a timeout, a refused connection, the breaker open
 * after 5 consecutive ones) answers the offline estimate instead (travel-estimate.ts), told to the
 * observer and logged once per minute and reason: a router's outage degrades the plan, never stops it.
 */
export interface OsrmOptions {
  baseUrl: string;
  /** The vehicles the router's data routes (OSRM_PROFILES): the others are estimated. */
  profiles: readonly VehicleProfile[];
  timeoutMs: number;
  /** osrm-routed's `--max-table-size`. */
  maxTableSize?: number;
  log?: (message: string) => void;
  onFallback?: (reason: string) => void;
  now?: () => number;
}

class RouterFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const formatPoint = (p: GeoPoint) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`;

export function osrmTravelTimes(options: OsrmOptions): TravelTimes {
  const now = options.now ?? Date.now;
  const base = options.baseUrl.replace(/\/+$/, '');
  const block = options.maxTableSize ?? 100;
  const circuit = breaker({ failures: 5, pauseMs: 30_000 }, now);
  const logged = new Map<string, number>();

  function fellBack(reason: string) {
    options.onFallback?.(reason);
    if (now() - (logged.get(reason) ?? 0) < 60_000) return;
    logged.set(reason, now());
    options.log?.(`router ${base} failed (${reason}): travel times estimated (great-circle × detour)`);
  }

  /** One table: `sources` × `destinations`, indices into `points`. */
  async function table(
    points: readonly GeoPoint[],
    profile: string,
    sources: number[],
    destinations: number[],
  ): Promise<{ durations: (number | null)[][]; distances: (number | null)[][] }> {
    // Only the points this block uses, so the URL stays short.
    const used = [...new Set([...sources, ...destinations])];
    // A point to itself (a block on the diagonal of one point): nothing to ask.
    if (used.length < 2) return { durations: [[0]], distances: [[0]] };
    const at = new Map(used.map((index, i) => [index, i]));
    const params = new URLSearchParams({
      annotations: 'duration,distance',
      sources: sources.map((s) => at.get(s)).join(';'),
      destinations: destinations.map((d) => at.get(d)).join(';'),
    });
    const url = `${base}/table/v1/${profile}/${used.map((i) => formatPoint(points[i]!)).join(';')}?${params}`;
    for (let attempt = 0; ; attempt++) {
      if (!circuit.allows()) throw new RouterFailure('down');
      let response: Response;
      try {
        response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs) });
      } catch (err) {
        const timedOut = (err as Error).name === 'TimeoutError';
        circuit.failed();
        if (timedOut || attempt > 0) throw new RouterFailure(timedOut ? 'timeout' : 'unreachable');
        await sleep(backoffMs(attempt));
        continue;
      }
      const body = (await response.json().catch(() => null)) as {
        code?: unknown;
        message?: unknown;
        durations?: unknown;
        distances?: unknown;
      } | null;
      if (response.status >= 500) {
        circuit.failed();
        if (attempt > 0) throw new RouterFailure(`HTTP ${response.status}`);
        await sleep(backoffMs(attempt));
        continue;
      }
      if (body?.code !== 'Ok') {
        // The router answered: our request (TooBig, NoSegment…), not an outage.
        circuit.succeeded();
        throw new RouterFailure(typeof body?.code === 'string' ? body.code : `HTTP ${response.status}`);
      }
      const rows = (m: unknown) =>
        Array.isArray(m) &&
        m.length === sources.length &&
        m.every((r) => Array.isArray(r) && r.length === destinations.length)
          ? (m as (number | null)[][])
          : null;
      const durations = rows(body.durations);
      const distances = rows(body.distances);
      if (!durations || !distances) {
        circuit.failed();
        throw new RouterFailure('malformed answer');
      }
      circuit.succeeded();
      return { durations, distances };
    }
  }

  return {
    async matrix(points, profile) {
      const n = points.length;
      if (n < 2 || !options.profiles.includes(profile)) return estimatedMatrix(points, profile);
      const osrmProfile = VEHICLE_SPECS[profile].osrmProfile;
      const estimate = estimatedMatrix(points, profile);
      const result: TravelMatrix = {
        durations: estimate.durations.map((r) => [...r]),
        distances: estimate.distances.map((r) => [...r]),
        source: 'road',
      };
      const indices = points.map((_, i) => i);
      try {
        for (let from = 0; from < n; from += block) {
          for (let to = 0; to < n; to += block) {
            const sources = indices.slice(from, from + block);
            const destinations = indices.slice(to, to + block);
            const answer = await table(points, osrmProfile, sources, destinations);
            sources.forEach((s, i) => {
              destinations.forEach((d, j) => {
                const duration = answer.durations[i]![j];
                const distance = answer.distances[i]![j];
                // No route between these two (an island of the data): the estimate stays.
                if (typeof duration === 'number' && typeof distance === 'number') {
                  result.durations[s]![d] = Math.round(duration);
                  result.distances[s]![d] = Math.round(distance);
                }
              });
            });
          }
        }
        return result;
      } catch (err) {
        if (!(err instanceof RouterFailure)) throw err;
        fellBack(err.reason);
        return estimate;
      }
    },
  };
}
