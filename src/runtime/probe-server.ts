import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { healthRoutes } from '../http/health/index.ts';
import { errorHandler, notFoundHandler } from '../http/shared/errors.ts';
import { loggerOptions } from '../http/shared/logging.ts';
import { generateRequestId } from '../http/shared/plugins/request-id.ts';
import { registerSecurityHeaders } from '../http/shared/plugins/security-headers.ts';
import { listenOrExplain } from './listen-errors.ts';
import type { Readiness } from './readiness.ts';

/**
 * A small HTTP server on PORT with only the probes: the worker's for its whole life, and the API's
 * while it waits for its database or migrations (then the API takes the port). Its logger is the
 * process's (JSON, LOG_LEVEL). Other operator endpoints (/metrics) register on it too. Whatever it
 * does not serve is answered as the API answers it: the error envelope with the API's request ids
 * and headers (an operator's tooling reads one shape, whichever process answered).
 */
export async function startProbeServer(
  config: Config,
  readiness: Readiness,
  /** The process's `/metrics` on PORT (src/observability.ts): false when it is not served there. */
  metrics?: (request: IncomingMessage, response: ServerResponse) => boolean,
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    genReqId: generateRequestId,
    requestIdHeader: false,
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  registerSecurityHeaders(app);
  await app.register(healthRoutes({ readiness }));
  if (metrics) {
    app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
      if (!metrics(request.raw, reply.raw)) return notFoundHandler(request, reply);
      // The exposition writes its own answer on the raw response.
      reply.hijack();
    });
  }
  await listenOrExplain(app, { port: config.port, host: config.host }, 'PORT');
  return app;
}
