import type { FastifyRequest } from 'fastify';
import { AppError, problemDetail } from '../../errors.ts';
import { withoutUnusable } from '../shared/plugins/text-inputs.ts';

/**
 * The account area's routes read their fields and query parameters through these helpers only
 * (test/account-form-inputs.test.ts checks it): the area's hook does not refuse a control character
 * (NUL, which PostgreSQL cannot store, and the other C0 controls) but marks the input
 * (`request.unusableInputs`), and the first read of a marked input throws its `invalid_request`
 * naming it. Read inside the route's `try`, that is the form's own error: the route redraws the
 * form with the field marked, and nothing is stored; read anywhere else (a hidden field, a
 * parameter no form shows), the area's 400 page. Later reads, the redraw's, give what was typed
 * without its control characters.
 */
function refuseOnce(request: FastifyRequest, where: 'body' | 'query', name: string): void {
  const marked = request.unusableInputs?.[where];
  if (!marked?.has(name)) return;
  // Every marked input of the form at once (this one first), so that the redraw reads none again.
  const names = [name, ...[...marked].filter((n) => n !== name)];
  marked.clear();
  // What a form says of a field or parameter with a control character in it.
  const details = names.map((field) => problemDetail(field, { code: 'text.controlCharacters' }));
  throw new AppError('invalid_request', `${name}: ${details[0]!.message}`, details);
}

const clean = (value: string, max: number) => withoutUnusable(value.slice(0, max));

/** One text field of a form body: '' when absent, the first when repeated, cut to `max` characters. */
export function text(request: FastifyRequest, name: string, max = 1024): string {
  refuseOnce(request, 'body', name);
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? clean(first, max) : '';
}

/** Every value of a repeated field (checkboxes), at most `max` of them. */
export function list(request: FastifyRequest, name: string, max = 20): string[] {
  refuseOnce(request, 'body', name);
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values
    .filter((v): v is string => typeof v === 'string')
    .slice(0, max)
    .map(withoutUnusable);
}

/** A query parameter (links in e-mails carry their token there). */
export function query(request: FastifyRequest, name: string, max = 200): string {
  refuseOnce(request, 'query', name);
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? clean(value, max) : '';
}

/** Whether the address carries the query parameter at all (a form's first display has none). */
export const asked = (request: FastifyRequest, name: string): boolean =>
  (request.query as Record<string, unknown> | undefined)?.[name] !== undefined;

/**
 * Whether a query parameter is exactly this value: a comparison, so a control character only makes
 * it false, and pages read it (e.g. `?mode=test`) without refusing it twice.
 */
export const queryIs = (request: FastifyRequest, name: string, value: string): boolean =>
  (request.query as Record<string, unknown> | undefined)?.[name] === value;

/** The caller's address for the key history and the sign-in limits (X-Forwarded-For only from TRUST_PROXY's proxies). */
export const clientIp = (request: FastifyRequest): string => request.ip ?? 'unknown';
