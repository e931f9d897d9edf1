import { type TArray, type TLiteral, type TSchema, Type } from '@sinclair/typebox';
import { TRACKING_REF_PATTERN } from '../../../domain/orders/tracking-ref.ts';
import { ERROR_STATUS, type ErrorCode } from '../../../errors.ts';
import { OPTIONAL_BODY } from '../optional-body.ts';

/**
 * Bounds of the error envelope. Error bodies can echo what a caller sent (a field name, an URL), so
 * `sendError` enforces these: the envelope stays small whatever the request (see src/http/errors.ts).
 */
export const ERROR_LIMITS = {
  message: 1000,
  details: 50,
  field: 200,
  detailMessage: 500,
} as const;

/**
 * The body of an operation that takes none (a cancellation, an unsubscription): nothing, or `{}`.
 * A field is refused like an unknown field of any body (400 `invalid_request`), never dropped.
 */
export const NoBody = Type.Object(
  {},
  {
    additionalProperties: false,
    [OPTIONAL_BODY]: true,
    description: 'No body is needed: send none, or `{}`. Any field is refused (400 `invalid_request`).',
  },
);

/** Generated (`req_` + 24 hex) or a sane caller-supplied `x-request-id` echoed back. */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';

export const ErrorSchema = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.Unsafe<ErrorCode>({
      type: 'string',
      enum: Object.keys(ERROR_STATUS),
      description: 'Machine-readable error code.',
    }),
    message: Type.String({
      maxLength: ERROR_LIMITS.message,
      description: 'A sentence for the developer reading the logs.',
    }),
    request_id: Type.String({
      maxLength: 128,
      pattern: REQUEST_ID_PATTERN,
      description: 'Also sent as the `x-request-id` header; quote it to support.',
    }),
    details: Type.Optional(
      Type.Array(
        Type.Object({
          field: Type.String({ maxLength: ERROR_LIMITS.field }),
          message: Type.String({ maxLength: ERROR_LIMITS.detailMessage }),
        }),
        {
          maxItems: ERROR_LIMITS.details,
          description: `Per-field problems, for validation errors (at most ${ERROR_LIMITS.details}).`,
        },
      ),
    ),
  },
  { $id: 'Error', title: 'Error' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400:
    'Invalid request (`invalid_request`): malformed JSON, wrong type, missing or unknown field; a NUL (`\\u0000`) ' +
    'or an unpaired surrogate in a JSON string, or a control character (U+0000 to U+001F but tab, line feed and ' +
    'carriage return) in a query or path parameter, the field named in `details`.',
  401: 'Missing, malformed, unknown or revoked API key (`unauthorized`).',
  403: 'The API key lacks the scope this operation needs (`insufficient_scope`).',
  404: 'Not found (`not_found`).',
  409: 'A request with the same Idempotency-Key is still being processed (`idempotency_conflict`).',
  413: 'Body larger than 64 KiB (`payload_too_large`).',
  415: 'Body is not `application/json` (`unsupported_media_type`).',
  422: 'The request is well-formed but cannot be carried out.',
  429:
    'Too many requests for this API key, or too many unknown or revoked API keys or open connections from this ' +
    'address (`rate_limited`); see `Retry-After`.',
  500: 'Internal error (`internal_error`); no detail is leaked.',
  503:
    'Temporarily unavailable (`unavailable`): the database cannot be reached. Nothing was done; retry after a ' +
    'moment (a POST or PATCH with the same Idempotency-Key is safe to retry).',
};

/**
 * Error responses for an operation, by status, each with the shared Error schema. Every operation
 * can also fail with 500 `internal_error` and 503 `unavailable` (the database is unreachable, or the
 * key cannot be verified), so those are always listed.
 */
export function errorResponses(
  statuses: number[],
  overrides: Record<number, string> = {},
): Record<number, TSchema> {
  return Object.fromEntries(
    [...new Set([...statuses, 500, 503])].map((status) => [
      status,
      { ...Type.Ref(ErrorSchema), description: overrides[status] ?? ERROR_DESCRIPTIONS[status] ?? 'Error.' },
    ]),
  );
}

/** `Date.toISOString()` is 24 characters (27 for years beyond 9999): every timestamp fits in 30. */
/** A 200 answering a PDF document (an invoice, a pickup manifest). */
export const PDF_DOCUMENT_RESPONSE = {
  description: 'The PDF document.',
  // OpenAPI 3.1 describes a binary body by its media type alone, not as a JSON string.
  content: { 'application/pdf': { schema: { contentMediaType: 'application/pdf' } } },
} as const;

export const TIMESTAMP_MAX_LENGTH = 30;
/** A calendar date, `YYYY-MM-DD`. */
export const DATE_MAX_LENGTH = 10;

/** A timestamp as sent: RFC 3339 in UTC. */
export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH, description });
export const NullableTimestamp = (description?: string) =>
  Type.Unsafe<string | null>({
    type: ['string', 'null'],
    format: 'date-time',
    maxLength: TIMESTAMP_MAX_LENGTH,
    ...(description ? { description } : {}),
  });
export const CalendarDate = (description?: string) =>
  Type.String({ format: 'date', maxLength: DATE_MAX_LENGTH, ...(description ? { description } : {}) });

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

/** An identifier in its exact shape: `prefix_` + lowercase hex (`brd_…`, `key_…`, `inv_…`). */
export const PrefixedId = (prefix: string, hexLength: number, options: Record<string, unknown> = {}) =>
  Type.String({
    pattern: `^${prefix}_[0-9a-f]{${hexLength}}$`,
    maxLength: prefix.length + 1 + hexLength,
    ...options,
  });

/** An order's public reference: `DLV-` + 10 Crockford base32 characters. */
export const TrackingRef = (options: Record<string, unknown> = {}) =>
  Type.String({
    pattern: TRACKING_REF_PATTERN.source,
    maxLength: 14,
    examples: ['DLV-7K3M9Q2XHP'],
    ...options,
  });

/**
 * Fastify refuses a longer path parameter before routing (400, see src/app.ts). Up to this length an
 * identifier path parameter is looked up, so one that names nothing is a 404, whatever its shape.
 */
export const PATH_PARAM_MAX_LENGTH = 100;

/** The largest value of a PostgreSQL `integer` (and of an OpenAPI `int32`). */
export const INT32_MAX = 2_147_483_647;

/** `limit` of every paginated list (the services check the same bounds). */
export const PageLimit = Type.Optional(
  Type.Integer({ format: 'int32', minimum: 1, maximum: 200, default: 50, description: 'Page size, 1–200.' }),
);

/** The `cursor` query parameter of every list. */
export const PageCursor = Type.Optional(
  Type.String({
    maxLength: 100,
    description:
      'The `next_cursor` of the previous page, with the same filters (a cursor is bound to its brand, list and filters).',
  }),
);

/** One page of a list: `{ ok, <items>: [...], next_cursor }`, the one shape of every list answer. */
export function Page<K extends string, T extends TSchema>(itemsName: K, item: T, description: string) {
  return Type.Object(
    {
      ok: Type.Literal(true),
      [itemsName]: Type.Array(item, { maxItems: 200, description: 'At most `limit`.' }),
      next_cursor: NullableString({
        pattern: '^[A-Za-z0-9_-]{1,100}$',
        maxLength: 100,
        description: 'Pass as `cursor` for the next page; null on the last.',
      }),
    } as { ok: TLiteral<true> } & { [P in K]: TArray<T> } & {
      next_cursor: ReturnType<typeof NullableString>;
    },
    { description },
  );
}
