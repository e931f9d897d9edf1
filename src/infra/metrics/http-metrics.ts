import { Counter, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS, PREFIX } from './names.ts';

/** Why a request got 429: its key's own limit, unknown keys from its address, the account area's limits. */
type RateLimitReason = 'per_key' | 'unknown_key' | 'account';

/**
 * Requests by route pattern (never the raw URL: one series per route, not per order), method and
 * status, with their latency; the 429s by reason.
 */
export function httpMetrics(registry: Registry) {
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests answered, by route pattern, method and status, and how long each took',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const limited = new Counter({
    name: `${PREFIX}http_rate_limited_total`,
    help: 'Requests refused with 429, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  return {
    requestFinished(route: string, method: string, status: number, seconds: number): void {
      duration.labels(route, method, String(status)).observe(seconds);
    },
    rateLimited(reason: RateLimitReason): void {
      limited.labels(reason).inc();
    },
  };
}
