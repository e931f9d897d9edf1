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
export async function startProbeServer(config: Config, readiness: Readiness): Promise<FastifyInstance> {
  const app = Fastify({ logger: loggerOptions(config.logLevel) });
  await app.register(healthRoutes({ readiness }));
  await app.listen({ port: config.port, host: config.host });
  return app;
}
