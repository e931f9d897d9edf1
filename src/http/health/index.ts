import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../../runtime/readiness.ts';

/** What the probes use: this process's readiness (src/runtime/readiness.ts). */
interface HealthContext {
  readiness: Readiness;
}

/**
 * `/livez` and `/readyz`, for load balancers and orchestrators: outside /public/v1, without
 * authentication and absent from the OpenAPI documents (docs/operator-guide.md describes them).
 * The same routes serve the API (`api`, `all`) and the worker's small server (`worker`).
 */
export function healthRoutes(ctx: HealthContext) {
  return async (app: FastifyInstance) => {
    // Probes come every few seconds: their requests are not logged below warn.
    // Liveness only: the process runs and its event loop turns. Never the database (restarting a
    // process because PostgreSQL is away would not bring PostgreSQL back).
    app.get('/livez', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });
    app.get('/readyz', { schema: { hide: true }, logLevel: 'warn' }, async (_request, reply) => {
      const report = await ctx.readiness.report();
      const ok = report.status === 'ready' || report.status === 'degraded';
      reply.header('cache-control', 'no-store');
      return reply.code(ok ? 200 : 503).send(report);
    });
  };
}
