import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionError } from '../../db/pool.ts';
import { AppError, type ErrorCode, type ErrorDetail, isAppError } from '../../errors.ts';
import { ERROR_LIMITS } from './schemas/shared.ts';

interface ErrorBody {
  ok: false;
  error: ErrorCode;
  message: string;
  request_id: string;
  details?: ErrorDetail[];
}

/** Shortens a text to `max` characters (ending with "…"), never splitting a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  // Messages and details may echo the request (an unknown field's name, an URL): bounded, so an
  // error body stays small whatever was sent, as the Error schema documents.
  const body: ErrorBody = {
    ok: false,
    error: err.code,
    message: clip(err.message, ERROR_LIMITS.message),
    request_id: String(reply.request.id),
  };
  if (err.details && err.details.length > 0) {
    body.details = err.details.slice(0, ERROR_LIMITS.details).map((d) => ({
      field: clip(d.field, ERROR_LIMITS.field),
      message: clip(d.message, ERROR_LIMITS.detailMessage),
    }));
  }
  if (err.code === 'unauthorized') reply.header('www-authenticate', 'Bearer realm="dlv"');
  return reply.status(err.status).type('application/json; charset=utf-8').send(body);
}

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Turns Ajv's errors into `details` a developer can act on: the field path and a sentence. */
function validationDetails(all: AjvError[], part: string | undefined): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  // A nullable field (`T | null`) fails both branches; the `null` branch and the `anyOf` summary
  // only repeat that it was not a valid T, so they are dropped when a more precise error exists.
  const precise = all.filter(
    (e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && e.params.type === 'null'),
  );
  const errors = precise.length > 0 ? precise : all;
  for (const e of errors) {
    const base = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
    let field = base;
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      field = [base, String(e.params.missingProperty)].filter(Boolean).join('.');
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      field = [base, String(e.params.additionalProperty)].filter(Boolean).join('.');
      message = 'is not a known field';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    } else if (e.keyword === 'format') {
      message =
        e.params.format === 'email'
          ? 'must be an e-mail address'
          : `must be a valid ${String(e.params.format)}`;
    }
    if (!field) field = part ?? 'body';
    const key = `${field}:${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ field, message });
  }
  return details;
}

const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'unavailable',
};

/** Maps anything thrown while handling a request to an AppError (unknown errors become 500). */
export function toAppError(err: FastifyError | Error): AppError {
  if (isAppError(err)) return err;
  const fastifyError = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fastifyError.validation) {
    const details = validationDetails(fastifyError.validation, fastifyError.validationContext);
    const summary = details.map((d) => `${d.field} ${d.message}`).join('; ');
    return new AppError('invalid_request', `Invalid request: ${summary}.`, details);
  }
  const status = fastifyError.statusCode ?? 500;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_request', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_request', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The body is larger than 64 KiB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported_media_type',
        'Send the body as JSON with "Content-Type: application/json".',
      );
  }
  // The request can be retried as is once the database answers again: 503, not 500.
  if (isConnectionError(err)) {
    return new AppError('unavailable', 'The service is temporarily unavailable; retry shortly.');
  }
  if (err instanceof SyntaxError && status === 400)
    return new AppError('invalid_request', 'The body is not valid JSON.');
  if (status >= 400 && status < 500) {
    return new AppError(
      CODE_BY_STATUS[status] ?? 'invalid_request',
      fastifyError.message || 'Invalid request.',
    );
  }
  if (status === 503)
    return new AppError('unavailable', 'The service is temporarily unavailable; retry shortly.');
  return new AppError(
    'internal_error',
    'An internal error occurred; it has been logged with this request id.',
  );
}

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(err);
  if (appError.status >= 500) request.log.error({ err }, 'request failed');
  return sendError(reply, appError);
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(
    reply,
    new AppError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`),
  );
}
