import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** What the logger writes to: stdout by default, a test's in-memory stream otherwise. */
export interface LogDestination {
  write(line: string): void;
}

// Query parameters whose names say they carry a credential, whatever their value looks like.
const SECRET_PARAM = /([?&][^=&#]*(?:key|token|secret|auth|password|signature)[^=&#]*=)[^&#]*/gi;
// Credentials in their own shapes, wherever they stand (a path segment, a mistyped parameter):
// an API key keeps its public prefix (`dlv_` + 8 hex, shown by GET /me) and loses the rest.
const API_KEY = /(dlv_[0-9a-f]{8})[0-9a-z]*/gi;
// A machine token of the operations API keeps its display prefix (`dlv_ops_` + 8 hex); an operator's
// session token keeps nothing.
const OPS_TOKEN = /(dlv_ops_[0-9a-f]{8})[0-9a-z]*/gi;
const OPERATOR_SESSION = /dlv_sess_[A-Za-z0-9_-]*/g;
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=%_-]*/g;
// A tracking page's token opens it to anyone: logs keep 4 characters, enough to match a complaint.
const TRACKING_TOKEN = /^(\/track\/)([^/?#]+)/;
// An unsubscribe link's token opts its address out: the same, 4 characters kept.
const UNSUBSCRIBE_TOKEN = /^(\/unsubscribe\/)([^/?#]+)/;

/**
 * The request URL as logged: an API key or secret a client wrongly puts in the URL (the API only
 * reads the `Authorization` header) must not end up in the logs.
 */
export function redactUrl(url: string): string {
  return url
    .replace(SECRET_PARAM, '$1[redacted]')
    .replace(API_KEY, '$1[redacted]')
    .replace(OPS_TOKEN, '$1[redacted]')
    .replace(OPERATOR_SESSION, 'dlv_sess_[redacted]')
    .replace(WEBHOOK_SECRET, 'whsec_[redacted]')
    .replace(TRACKING_TOKEN, (all, path: string, token: string) =>
      token === 'assets' ? all : `${path}${token.slice(0, 4)}[redacted]`,
    )
    .replace(UNSUBSCRIBE_TOKEN, (_, path: string, token: string) => `${path}${token.slice(0, 4)}[redacted]`);
}

/**
 * The server's logger settings (pino): request headers are never logged (the Authorization and
 * Idempotency-Key headers are redacted should a serializer ever include them), nor a recipient's
 * one-time code (never in a URL: the self-service posts it in a form body), and URLs are
 * logged through `redactUrl`. `test/secrets-at-rest.test.ts` runs the app with these at `trace`.
 */
export function loggerOptions(level: string, stream?: LogDestination): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      // `code`: a recipient's one-time code (decision 0007), should a log call or serializer ever
      // carry one or a form body; error objects keep their own `err.code` (not a wildcard path).
      paths: [
        'req.headers.authorization',
        'req.headers["idempotency-key"]',
        'req.headers.cookie',
        'code',
        'body.code',
        'req.body.code',
        'request.body.code',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        };
      },
    },
  };
}
