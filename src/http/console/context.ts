import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleRequirement } from '../shared/plugins/auth.ts';
import type { ConsoleContext } from './views/layout.ts';

// A leaf module: what the console's plugin (index.ts) hands its route files, so that no route file
// imports index.ts or another route file.

/** How a route gets the page context of a request. */
export type ConsoleContextOf = (request: FastifyRequest, reply: FastifyReply) => Promise<ConsoleContext>;

/** A console page's route options: what it requires of the signed-in operator. */
export const needs = (requirement: ConsoleRequirement) => ({
  config: { auth: { console: requirement } },
  schema: { hide: true },
});

/** The sign-in page and the static files: open. */
export const OPEN = { config: { auth: 'none' as const }, schema: { hide: true } };

export const sendPage = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);
