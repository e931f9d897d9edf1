import type { ErrorCode } from './generated.js';

/** What the API answers on failure: `{ ok: false, error, message, request_id, details? }`. */
export interface ErrorEnvelope {
  ok: false;
  error: ErrorCode;
  message: string;
  request_id: string;
  details?: { field: string; message: string }[];
}

/** The request did not get an answer from the API (network failure, timeout, abort). */
export class DlvConnectionError extends Error {
  override name = 'DlvConnectionError';
}

/**
 * The API answered with an error: `code` is the envelope's `error` (a discriminant: switch on it),
 * `requestId` what support asks for.
 */
export class DlvApiError extends Error {
  override name = 'DlvApiError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string;
  readonly details: { field: string; message: string }[];
  readonly envelope: ErrorEnvelope;
  /** Seconds the API asked to wait (429, 503), when it said. */
  readonly retryAfter: number | null;

  constructor(status: number, envelope: ErrorEnvelope, retryAfter: number | null = null) {
    super(`${envelope.error}: ${envelope.message} (request ${envelope.request_id})`);
    this.status = status;
    this.code = envelope.error;
    this.requestId = envelope.request_id;
    this.details = envelope.details ?? [];
    this.envelope = envelope;
    this.retryAfter = retryAfter;
  }
}

/** Whether `error` is an API error, optionally of one code: `if (isApiError(e, 'out_of_zone'))`. */
export function isApiError<C extends ErrorCode>(
  error: unknown,
  code?: C,
): error is DlvApiError & { code: C } {
  return error instanceof DlvApiError && (code === undefined || error.code === code);
}
