import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { healthRoutes } from '../http/health/index.ts';
import { loggerOptions } from '../http/shared/logging.ts';
import type { Readiness } from './readiness.ts';

/**
 * A small HTTP server on PORT with only the probes: the worker's for its whole life, and the API's
 * while it waits for its database or migrations (then the API takes the port). Its logger is the
 * process's (JSON, LOG_LEVEL). Other operator endpoints (/metrics) register on it too.
 */
export async function startProbeServer(
  config: Config,
  readiness: Readiness,
  /** The process's `/metrics` on PORT (src/observability.ts): false when it is not served there. */
  metrics?: (request: IncomingMessage, response: ServerResponse) => boolean,
): Promise<FastifyInstance> {
  const app = Fastify({ logger: loggerOptions(config.logLevel) });
  await app.register(healthRoutes({ readiness }));
  if (metrics) {
    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      reply.hijack();
      if (!metrics(request.raw, reply.raw)) {
        reply.raw.writeHead(404, { 'content-type': 'application/json' });
        reply.raw.end(JSON.stringify({ error: { code: 'not_found', message: 'Not found' } }));
      }
    });
  }
  await app.listen({ port: config.port, host: config.host });
  return app;
}
