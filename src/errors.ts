/**
 * The one error model of the service. Domain code throws AppError; the HTTP layer maps it to the
 * `{ ok:false, error, message, request_id, details? }` envelope and the CLI prints `message`.
 */
import { type FieldProblem, fieldProblemText } from './i18n/field-problems.ts';

export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  csrf_failed: 403,
  invalid_signature: 403,
  webhooks_not_enabled: 403,
  setup_required: 403,
  test_mode_only: 403,
  not_found: 404,
  idempotency_conflict: 409,
  pickup_closed: 409,
  second_factor_enrolled: 409,
  simulation_out_of_order: 409,
  round_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  out_of_zone: 422,
  invalid_address: 422,
  unpriceable: 422,
  invalid_transition: 422,
  idempotency_key_reused: 422,
  not_labellable: 422,
  unknown_orders: 422,
  too_many_labels: 422,
  date_in_past: 422,
  not_a_business_day: 422,
  pickup_cutoff_passed: 422,
  no_pickup_address: 422,
  pickup_not_due: 422,
  not_in_pickup: 422,
  unreadable_image: 422,
  already_on_round: 422,
  invalid_stops: 422,
  unknown_stops: 422,
  courier_disabled: 422,
  operator_disabled: 422,
  last_admin: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  field: string;
  message: string;
  /**
   * What `message` says, as a code and values, for surfaces that word it in their reader's
   * language (the account area). Not enumerable: a detail's shape in the API's envelope, the CLI's
   * JSON, the logs and the tests stays `{ field, message }`.
   */
  readonly problem?: FieldProblem;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A field's detail stating a coded problem: its message is the problem's English. */
export function problemDetail(field: string, problem: FieldProblem): ErrorDetail {
  const detail: ErrorDetail = { field, message: fieldProblemText('en', problem) };
  Object.defineProperty(detail, 'problem', { value: problem, enumerable: false });
  return detail;
}

/** A 400 naming one field with a coded problem (i18n/field-problems.ts), which pages word in French too. */
export function fieldProblem(
  field: string,
  code: FieldProblem['code'],
  values?: FieldProblem['values'],
): AppError {
  const detail = problemDetail(field, values ? { code, values } : { code });
  return new AppError('invalid_request', `${field}: ${detail.message}`, [detail]);
}

/** A 400 naming one field: the common case of a bad input value. */
export function invalidField(field: string, message: string): AppError {
  return new AppError('invalid_request', `${field}: ${message}`, [{ field, message }]);
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

/**
 * Runs every field check and reports all failures at once (one 400 with a `details` entry per
 * field), so a developer fixes a request in one round trip rather than one field at a time.
 */
export function validateAll<T extends Record<string, unknown>>(checks: { [K in keyof T]: () => T[K] }): T {
  return validateFields(undefined, checks);
}

/**
 * `validateAll` with checks that take the input as an argument: hot paths define their checks
 * once, at module level, instead of allocating a closure per field on every request.
 */
export function validateFields<I, T extends Record<string, unknown>>(
  input: I,
  checks: { [K in keyof T]: (input: I) => T[K] },
): T {
  const result = {} as T;
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(checks) as (keyof T)[]) {
    try {
      result[key] = checks[key](input);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'invalid_request') throw err;
      details.push(...(err.details ?? [{ field: String(key), message: err.message }]));
    }
  }
  if (details.length === 1)
    throw new AppError('invalid_request', `${details[0]!.field}: ${details[0]!.message}`, details);
  if (details.length > 1) {
    throw new AppError(
      'invalid_request',
      `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}.`,
      details,
    );
  }
  return result;
}
