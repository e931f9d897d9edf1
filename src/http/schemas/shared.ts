import { type TSchema, Type } from '@sinclair/typebox';
import { ERROR_STATUS, type ErrorCode } from '../../errors.ts';

export const ErrorSchema = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: Object.keys(ERROR_STATUS),
      description: 'Machine-readable error code.',
    }),
    message: Type.String({ description: 'A sentence for the developer reading the logs.' }),
    request_id: Type.String({ description: 'Also sent as the `x-request-id` header; quote it to support.' }),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'Per-field problems, for validation errors.',
      }),
    ),
  },
  { $id: 'Error', title: 'Error' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`invalid_request`): malformed JSON, wrong type, missing or unknown field.',
  401: 'Missing, malformed, unknown or revoked API key (`unauthorized`).',
  403: 'The API key lacks the scope this operation needs (`insufficient_scope`).',
  404: 'Not found (`not_found`).',
  409: 'A request with the same Idempotency-Key is still being processed (`idempotency_conflict`).',
  413: 'Body larger than 64 KiB (`payload_too_large`).',
  415: 'Body is not `application/json` (`unsupported_media_type`).',
  422: 'The request is well-formed but cannot be carried out.',
  429: 'Too many requests for this API key (`rate_limited`); see `Retry-After`.',
  500: 'Internal error (`internal_error`); no detail is leaked.',
  503: 'Temporarily unavailable (`unavailable`); retry with the same Idempotency-Key.',
};

/** Error responses for an operation, by status, each with the shared Error schema. */
export function errorResponses(
  statuses: number[],
  overrides: Record<number, string> = {},
): Record<number, TSchema> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { ...Type.Ref(ErrorSchema), description: overrides[status] ?? ERROR_DESCRIPTIONS[status] ?? 'Error.' },
    ]),
  );
}

/** A timestamp as sent: RFC 3339 in UTC. */
export const Timestamp = (description?: string) => Type.String({ format: 'date-time', description });
export const NullableTimestamp = (description?: string) =>
  Type.Unsafe<string | null>({
    type: ['string', 'null'],
    format: 'date-time',
    ...(description ? { description } : {}),
  });

export const iso = (d: Date): string => d.toISOString();
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);

/*
 * Nullable values and enums as `type: [T, "null"]` and `enum` rather than `anyOf` unions: the same
 * JSON Schema meaning (OpenAPI 3.1), but the response serializer handles them directly instead of
 * validating every value against each branch — a large cost on a page of 200 orders.
 */
export const NullableString = (options: Record<string, unknown> = {}) =>
  Type.Unsafe<string | null>({ ...options, type: ['string', 'null'] });
export const NullableNumber = (options: Record<string, unknown> = {}) =>
  Type.Unsafe<number | null>({ ...options, type: ['number', 'null'] });
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
) => Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
