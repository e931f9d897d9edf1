import type { FastifyInstance, RouteOptions } from 'fastify';

/** A route on its way out (docs/versioning.md): when it was deprecated, when it goes, what replaces it. */
export interface Deprecation {
  /** The day it was deprecated (YYYY-MM-DD). */
  since: string;
  /** The day it stops answering (YYYY-MM-DD), once decided: at least 6 months after `since`. */
  sunset?: string;
  /** What to use instead, for the OpenAPI description. */
  replacement: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    deprecation?: Deprecation;
  }
}

const DAY_MS = 86_400_000;
const MIN_NOTICE_DAYS = 182;

/**
 * The headers of a deprecated route's answers: `Deprecation` (RFC 9745, the date as `@` Unix
 * seconds), `Sunset` (RFC 8594, an HTTP date) once set, and a `Link` to the policy.
 */
export function deprecationHeaders(deprecation: Deprecation, policyUrl: string): Record<string, string> {
  const since = Date.parse(`${deprecation.since}T00:00:00Z`);
  const headers: Record<string, string> = {
    deprecation: `@${Math.floor(since / 1000)}`,
    link: `<${policyUrl}>; rel="deprecation"; type="text/html"`,
  };
  if (deprecation.sunset) headers.sunset = new Date(`${deprecation.sunset}T00:00:00Z`).toUTCString();
  return headers;
}

/**
 * Routes declaring `config.deprecation` are marked `deprecated` in the OpenAPI document (with their
 * replacement) and send the deprecation headers on every answer, errors included. A sunset closer
 * than the promised notice is refused at start-up.
 */
export function registerDeprecations(app: FastifyInstance, policyUrl: string): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const deprecation = route.config?.deprecation;
    if (!deprecation) return;
    if (deprecation.sunset) {
      const notice = (Date.parse(deprecation.sunset) - Date.parse(deprecation.since)) / DAY_MS;
      if (!(notice >= MIN_NOTICE_DAYS)) {
        throw new Error(
          `${route.method} ${route.url}: a sunset needs ${MIN_NOTICE_DAYS} days' notice at least`,
        );
      }
    }
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    route.schema = {
      ...schema,
      deprecated: true,
      description: `${schema.description ?? ''}\n\n**Deprecated** since ${deprecation.since}${
        deprecation.sunset ? `, removed on ${deprecation.sunset}` : ''
      }: ${deprecation.replacement}`.trim(),
    };
    const headers = deprecationHeaders(deprecation, policyUrl);
    const previous = route.onSend;
    route.onSend = [
      ...(previous ? [previous].flat() : []),
      async (_request, reply, payload) => {
        reply.headers(headers);
        return payload;
      },
    ];
  });
}
