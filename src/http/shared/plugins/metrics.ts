import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../../errors.ts';
import { bearerToken } from '../bearer.ts';

/** What the HTTP layer tells the metrics, and asks of them (src/infra/metrics implements it). */
export interface HttpMetricsSink {
  http: {
    requestFinished(route: string, method: string, status: number, seconds: number): void;
    rateLimited(reason: 'per_key' | 'unknown_key' | 'account'): void;
  };
  exposition(): Promise<{ contentType: string; body: string }>;
}

/** Requests matching no route (404s, refused URLs) share one label: their paths are anyone's choice. */
const UNMATCHED = 'unmatched';

const METRICS_PATH = '/metrics';

/**
 * Counts and times every request by route pattern and status; with `token` (METRICS_TOKEN),
 * serves `/metrics` on this port to `Authorization: Bearer <token>`. Without it there is no such
 * route (404, as for any unknown path): METRICS_PORT serves the metrics on a port of their own.
 * Outside every prefix, so in no OpenAPI document.
 */
export function registerMetrics(app: FastifyInstance, sink: HttpMetricsSink, token: string | null): void {
  const { http } = sink;
  // Callback-style and synchronous: one histogram observation per request, no promise.
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    http.requestFinished(
      request.routeOptions.url ?? UNMATCHED,
      request.method,
      status,
      reply.elapsedTime / 1000,
    );
    if (status === 429) http.rateLimited(rateLimitReason(request));
    done();
  });
  if (token === null) return;
  const expected = createHash('sha256').update(token).digest();
  app.get(METRICS_PATH, { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    const presented = bearerToken(request.headers.authorization);
    // Compared as digests: constant time whatever the length presented.
    const matches =
      presented !== null && timingSafeEqual(createHash('sha256').update(presented).digest(), expected);
    if (!matches) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthorized', 'The metrics need "Authorization: Bearer <METRICS_TOKEN>".');
    }
    const { contentType, body } = await sink.exposition();
    return reply.header('cache-control', 'no-store').type(contentType).send(body);
  });
}

/** A 429 with a key is that key's limit; without one, unknown keys from the address, or the account area's. */
function rateLimitReason(request: FastifyRequest): 'per_key' | 'unknown_key' | 'account' {
  if (request.principal?.kind === 'apiKey') return 'per_key';
  return request.url.startsWith('/account') ? 'account' : 'unknown_key';
}
