import type { FastifyInstance, FastifyRequest } from 'fastify';

type RouteConfig = FastifyRequest['routeOptions']['config'];

declare module 'fastify' {
  interface FastifyRequest {
    /** Kept by `routeConfig`: the first read of the request's route config. */
    routeConfigRead: RouteConfig | null;
  }
}

/**
 * Declared at the root, so every request starts with the same shape (a field added later would
 * change it).
 */
export function registerRouteConfig(app: FastifyInstance): void {
  app.decorateRequest('routeConfigRead', null);
}

/**
 * The request's route config (`config` of its route). Fastify's `request.routeOptions` builds a
 * new twelve-field object and asks the router about versions on every read; the hooks every request
 * passes (authentication, scope, body parser, text check) read the config several times, so the
 * first read is kept on the request. (A handler's `reply.callNotFound()` moves the request to the
 * 404 handler, whose config this no longer follows: none of the hooks reading it runs after a
 * handler.)
 */
export function routeConfig(request: FastifyRequest): RouteConfig {
  let config = request.routeConfigRead;
  if (config === null || config === undefined) {
    config = request.routeOptions.config;
    request.routeConfigRead = config;
  }
  return config;
}
