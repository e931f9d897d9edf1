import type { FastifyInstance } from 'fastify';

/**
 * A syntactically valid request for any authenticated route, so the security suite checks the
 * gate rather than the validation behind it. Path parameters get well-formed placeholder values.
 */
const PLACEHOLDERS: Record<string, string> = {
  trackingRef: 'DLV-0000000000',
  id: 'inv_0000000000000000',
  subscriptionId: 'whk_0000000000000000',
};

export function exampleUrl(url: string): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => PLACEHOLDERS[name] ?? 'x');
}

/** Routes behind a credential sent in `Authorization` (an API key, or an operator's: session, token, OPS_TOKEN). */
export function authenticatedRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter(
    (r) => r.auth !== 'none' && r.auth !== 'session' && r.auth !== 'courier' && r.auth !== 'console',
  );
}

/** The couriers' routes behind a courier session (`/courier`: pages redirect, `/courier/api/` answers 401). */
export function courierRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter((r) => r.auth === 'courier');
}

/** Account pages behind a signed-in session (a cookie, not a bearer: they redirect to sign-in). */
export function sessionRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter((r) => r.auth === 'session');
}

/**
 * Public routes whose credential is the provider's signature over the request (Twilio's webhooks,
 * `/sms/twilio/*`, present with TWILIO_*): the security suite sends them everything but that.
 */
export function providerSignedRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter((r) => r.auth === 'none' && r.url.startsWith('/sms/'));
}

/** The tracking pages (`/track/{token}`): public, the token in the URL is the credential. */
export function trackingRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter((r) => r.url.startsWith('/track/'));
}

/** The operations API's routes behind an operator credential, each with what it requires (`ops`). */
export function opsRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter((r) => r.auth === 'ops');
}

/** The operator's console pages behind a console session cookie, each with what it requires. */
export function consoleRoutes(app: FastifyInstance) {
  return app.routeCatalog.filter((r) => r.auth === 'console');
}
