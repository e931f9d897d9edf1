import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageContext } from './views/layout.ts';

// A leaf module: what the area's plugin (index.ts) hands its route files, and the helpers the route
// files share, live here so that no route file imports index.ts or another route file for them.

/** How a route gets the page context (locale, wording, CSRF token, signed-in person) of a request. */
export type PageContextOf = (request: FastifyRequest, reply: FastifyReply) => Promise<PageContext>;

export const SIGNED_IN = { config: { auth: 'session' as const }, schema: { hide: true } };

export const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

export const idOf = (request: FastifyRequest) => (request.params as { connectionId: string }).connectionId;
