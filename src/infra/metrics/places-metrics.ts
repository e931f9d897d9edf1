import { Counter, type Registry } from 'prom-client';
import type { PlacesObserver } from '../../domain/places/ports.ts';
import { PREFIX } from './names.ts';

/** The places (the domain's PlacesObserver): geocoder requests, the cache, and each fallback. */
export function placesMetrics(registry: Registry): PlacesObserver {
  const geocoded = new Counter({
    name: `${PREFIX}geocoder_requests_total`,
    help: 'Geocoder requests, by outcome (found, not_found, rejected, throttled, timeout, error, down)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const lookups = new Counter({
    name: `${PREFIX}address_cache_lookups_total`,
    help: 'Addresses looked up in the shared cache of places, by result (hit, miss)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  const geocoderFallbacks = new Counter({
    name: `${PREFIX}geocoder_fallbacks_total`,
    help: "Addresses placed at their postcode because the geocoder's word did not come (pending: slow; unavailable: down)",
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const routerFallbacks = new Counter({
    name: `${PREFIX}travel_times_fallbacks_total`,
    help: 'Travel-time matrices estimated (great-circle × detour) because the router failed, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  return {
    geocoded: (outcome) => geocoded.labels(outcome).inc(),
    cacheLookup: (hit) => lookups.labels(hit ? 'hit' : 'miss').inc(),
    geocoderFallback: (reason) => geocoderFallbacks.labels(reason).inc(),
    // OSRM's error codes are a short documented list; anything else is counted as "other".
    travelTimesFallback: (reason) =>
      routerFallbacks.labels(ROUTER_REASONS.has(reason) ? reason : 'other').inc(),
  };
}

const ROUTER_REASONS: ReadonlySet<string> = new Set([
  'down',
  'timeout',
  'unreachable',
  'malformed answer',
  'InvalidUrl',
  'InvalidService',
  'InvalidVersion',
  'InvalidOptions',
  'InvalidQuery',
  'InvalidValue',
  'NoSegment',
  'TooBig',
  'NoTable',
  'NotImplemented',
  'HTTP 500',
  'HTTP 502',
  'HTTP 503',
  'HTTP 504',
]);
