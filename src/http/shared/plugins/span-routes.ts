import type { FastifyInstance } from 'fastify';
import { ROUTE_OF_REQUEST, tracing } from '../../../infra/telemetry/tracing.ts';

/**
 * With tracing on, each request's server span is named by its route pattern (`GET
 * /public/v1/orders/:trackingRef`, attribute `http.route`): the route is left on Node's request for
 * the HTTP instrumentation, which names the span as the response ends. Nothing without tracing.
 */
export function nameSpansByRoute(app: FastifyInstance): void {
  if (!tracing()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined) (request.raw as { [ROUTE_OF_REQUEST]?: string })[ROUTE_OF_REQUEST] = route;
    done();
  });
}
