import type { Answer } from '../shop-http.ts';

/**
 * Twilio's REST error body (twilio.com/docs/usage/twilios-response): `code`, `message`,
 * `more_info` (the error's page) and `status`, the HTTP status repeated.
 */
export function twilioError(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  extra: Record<string, string> = {},
): Answer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({
      code,
      ...extra,
      message,
      more_info: `https://www.twilio.com/docs/errors/${code}`,
      status,
    }),
  };
}

/** 401 in Twilio's words: no credentials at all, or a wrong SID or token. */
export const notAuthenticated = (given: boolean): Answer =>
  twilioError(
    401,
    20003,
    given ? 'Authentication Error - invalid username' : 'Authentication Error - No credentials provided',
    { 'www-authenticate': 'Basic realm="Twilio API"' },
    { detail: 'Your AccountSid or AuthToken was incorrect.' },
  );

export const tooManyRequests = (retryAfterSeconds: number | null): Answer =>
  twilioError(
    429,
    20429,
    'Too Many Requests',
    retryAfterSeconds === null ? {} : { 'retry-after': String(retryAfterSeconds) },
  );

export const internalError = (status: 500 | 503): Answer =>
  status === 500
    ? twilioError(500, 20500, 'An internal server error has occurred')
    : twilioError(503, 20503, 'Service is unavailable. Please try again');
