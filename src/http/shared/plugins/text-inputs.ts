import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../../errors.ts';

/**
 * C0 control characters but tab, line feed and carriage return (which a form's text area sends),
 * and halves of a UTF-16 pair without their other half. PostgreSQL cannot store U+0000 at all (a
 * query carrying one fails), and none of the others is ever meant to be in a field or a parameter.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNUSABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff]/u;
/** Outside a JSON body a control character can only arrive percent-encoded (or raw, if the parser let it). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const MAY_CARRY_ONE = /[%\u0000-\u001f]/;

export const UNUSABLE_TEXT_MESSAGE =
  'must not contain control characters (U+0000 to U+001F, but tab and line breaks) or unpaired surrogates';

/** The path of the first string in `value` that `pattern` matches (`''`: `value` itself), or null. */
export function fieldMatching(value: unknown, path: string, pattern: RegExp): string | null {
  if (typeof value === 'string') return pattern.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = fieldMatching(item, path ? `${path}.${key}` : key, pattern);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Refuses, with 400 `invalid_request` naming the field, a path parameter, a query parameter or a
 * form field carrying a character of UNUSABLE, before validation and before any handler: one check
 * for every surface (the API's envelope, the account area's and the tracking pages' error pages).
 * JSON bodies are checked as they are parsed (NUL and unpaired surrogates, which no JSON string of
 * ours can store; app.ts).
 */
export function refuseUnusableText(app: FastifyInstance): void {
  // Callback-style and cheap when there is nothing to look at: it runs on every request.
  app.addHook('preValidation', (request, _reply, done) => {
    let field: string | null = null;
    if (MAY_CARRY_ONE.test(request.url)) {
      field = fieldMatching(request.params, '', UNUSABLE) ?? fieldMatching(request.query, '', UNUSABLE);
    }
    if (field === null && isForm(request.headers['content-type'])) {
      field = fieldMatching(request.body, '', UNUSABLE);
    }
    done(field === null ? undefined : invalidField(field || 'body', UNUSABLE_TEXT_MESSAGE));
  });
}

const isForm = (contentType: string | undefined) =>
  contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded') === true;
