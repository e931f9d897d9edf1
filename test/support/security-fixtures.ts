import type { FastifyInstance } from 'fastify';

/**
 * A syntactically valid request for any authenticated route, so the security suite checks the
 * gate rather than the validation behind it. Path parameters get well-formed placeholder values.
 */
const PLACEHOLDERS: Record<string, string> = {
  trackingRef: 'DLV-0000000000',
  id: 'inv_0000000000000000',
};

export function exampleUrl(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => PLACEHOLDERS[name] ?? 'x');
}

export function authenticatedRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter((r) => r.auth !== 'none');
}
