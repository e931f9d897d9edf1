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
): Answer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }),
  };
}

export const notAuthenticated = (): Answer =>
  twilioError(401, 20003, 'Authenticate', { 'www-authenticate': 'Basic realm="Twilio API"' });

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
