import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const COMMON = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};
const API_HEADERS = {
  ...COMMON,
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};
// The reference page (Redoc, served from here): this origin's scripts only, no inline script; the
// styles and fonts Redoc injects (styled-components, data: URLs) and its search worker (a blob:
// URL); nothing is loaded from elsewhere (Redoc's telemetry and attribution logo are refused).
const DOCS_HEADERS = {
  ...COMMON,
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

// The recipients' tracking pages (/track, server-rendered HTML): their own stylesheet and nothing
// else, no script at all, forms posted to this origin only (the self-service), never indexed (the
// URL is a credential), never stored by a cache (the stylesheet's route sets its own cache-control).
const TRACKING_HEADERS = {
  ...COMMON,
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
};
const TRACKING_PATH = /^\/track(\/|\?|$)/;
// The recipients' unsubscribe page: the tracking pages' headers, and its one form posting to itself.
const UNSUBSCRIBE_HEADERS = {
  ...TRACKING_HEADERS,
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};
const UNSUBSCRIBE_PATH = /^\/unsubscribe(\/|\?|$)/;

// The paths' first letters spare the patterns on every other request (the API's, the hot ones).
const headersFor = (url: string) =>
  url.startsWith('/t') && TRACKING_PATH.test(url)
    ? TRACKING_HEADERS
    : url.startsWith('/u') && UNSUBSCRIBE_PATH.test(url)
      ? UNSUBSCRIBE_HEADERS
      : url.includes('/docs')
        ? DOCS_HEADERS
        : API_HEADERS;

/** Sets the headers every response carries, and its request id. */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(headersFor(request.url));
  reply.header('x-request-id', request.id);
}

/** Headers every response carries (set first, so error responses and 404s have them too). */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    applySecurityHeaders(request, reply);
    done();
  });
}
