import type { ErrorCode } from '../../../../errors.ts';

/** An OpenAPI Example Object: what a client generator or the docs page shows for a media type. */
interface Example {
  summary: string;
  value: unknown;
}

export type Examples = Record<string, Example>;

/** A 422 an operation can answer, by its `error` code. */
export interface Unprocessable {
  summary: string;
  message: string;
  details?: { field: string; message: string }[];
}

/**
 * The examples of one operation, by `operationId`. Error responses without their own examples get
 * one built from their status (see openapi-examples.ts); `unprocessable` lists every 422 code the
 * operation can answer, which also becomes the `error` enum of its 422 response.
 */
export interface OperationExamples {
  request?: Examples;
  responses: Record<string, Examples>;
  unprocessable?: Partial<Record<ErrorCode, Unprocessable>>;
}

/** The request id shown in error examples. */
const EXAMPLE_REQUEST_ID = 'req_3f9a0c1d2e3f000000000001';

export function errorExample(code: ErrorCode, message: string, details?: Unprocessable['details']) {
  return { ok: false, error: code, message, request_id: EXAMPLE_REQUEST_ID, ...(details ? { details } : {}) };
}

/** Every write taking an Idempotency-Key can answer this 422. */
export const IDEMPOTENCY_KEY_REUSED: Unprocessable = {
  summary: 'Idempotency-Key already used with another request',
  message:
    'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
};
