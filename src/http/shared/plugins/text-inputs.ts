import type { FastifyInstance } from 'fastify';
import { type AppError, invalidField } from '../../../errors.ts';
import { routeConfig } from '../route-config.ts';

/**
 * C0 control characters but tab, line feed and carriage return (which a form's text area sends),
 * and halves of a UTF-16 pair without their other half. PostgreSQL cannot store U+0000 at all (a
 * query carrying one fails), and none of the others is ever meant to be in a field or a parameter.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNUSABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff]/u;
const UNUSABLE_ALL = new RegExp(UNUSABLE.source, 'gu');
/** `text` without the characters of UNUSABLE: what a form shows again once it said why it refused them. */
export const withoutUnusable = (text: string): string => text.replace(UNUSABLE_ALL, '');
/** Outside a JSON body a control character can only arrive percent-encoded (or raw, if the parser let it). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const MAY_CARRY_ONE = /[%\u0000-\u001f]/;

export const UNUSABLE_TEXT_MESSAGE =
  'must not contain control characters (U+0000 to U+001F, but tab and line breaks) or unpaired surrogates';

/** NUL and unpaired surrogates (the `u` flag: a pair is one character, outside this class). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it finds
const UNSTORABLE = /[\u0000\ud800-\udfff]/u;
const UNSTORABLE_MESSAGE =
  'must not contain NUL (\\u0000) or unpaired surrogate (\\ud800-\\udfff) characters';

/**
 * A 400 naming the first string of parsed JSON that PostgreSQL cannot store (text, jsonb: NUL,
 * unpaired surrogates; JSON escapes can carry both), else null. For every JSON the app parses: a
 * request's body (fields by their own path), and JSON sent inside a multipart field (`within`, the
 * field's name, prefixes them).
 */
export function unstorableText(value: unknown, within?: string): AppError | null {
  const field = fieldMatching(value, '', UNSTORABLE);
  if (field === null) return null;
  const name = within ? (field ? `${within}.${field}` : within) : field || 'body';
  return invalidField(name, UNSTORABLE_MESSAGE);
}

/** The path of the first string in `value` that `pattern` matches (`''`: `value` itself), or null. */
function fieldMatching(value: unknown, path: string, pattern: RegExp): string | null {
  if (typeof value === 'string') return pattern.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const found = fieldMatching(item, path ? `${path}.${key}` : key, pattern);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The form fields and query parameters of a request that carry a character of UNUSABLE, by their
 * top-level name, when its route takes them itself (`config.unusableText: 'mark'`).
 */
interface UnusableInputs {
  query: Set<string>;
  body: Set<string>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'mark': a query parameter or form field with a control character is not refused here but
     * noted in `request.unusableInputs`, for the route to refuse where it reads it (the account
     * area, which shows the refusal on the form: account/form.ts). Path parameters are refused.
     */
    unusableText?: 'refuse' | 'mark';
  }
  interface FastifyRequest {
    unusableInputs: UnusableInputs | null;
  }
}

/** The top-level names of `value`'s entries holding a string that `pattern` matches. */
function namesMatching(value: unknown, pattern: RegExp): Set<string> {
  const names = new Set<string>();
  if (value === null || typeof value !== 'object') return names;
  for (const [key, item] of Object.entries(value))
    if (fieldMatching(item, key, pattern) !== null) names.add(key);
  return names;
}

/**
 * Refuses, with 400 `invalid_request` naming the field, a path parameter, a query parameter or a
 * form field carrying a character of UNUSABLE, before validation and before any handler: one check
 * for every surface (the API's envelope, the tracking pages' error pages). The account area's
 * routes take query parameters and form fields themselves (`config.unusableText: 'mark'`), to show
 * the refusal on the form. JSON bodies are checked as they are parsed (NUL and unpaired surrogates,
 * which no JSON string of ours can store; app.ts).
 */
export function refuseUnusableText(app: FastifyInstance): void {
  app.decorateRequest('unusableInputs', null);
  // Callback-style and cheap when there is nothing to look at: it runs on every request.
  app.addHook('preValidation', (request, _reply, done) => {
    const mayCarry = MAY_CARRY_ONE.test(request.url);
    const form = isForm(request.headers['content-type']);
    // The common case (a URL without percent-encoding, a JSON or empty body): nothing to look at.
    if (!mayCarry && !form) return done();
    const param = mayCarry ? fieldMatching(request.params, '', UNUSABLE) : null;
    if (param !== null) return done(invalidField(param || 'path', UNUSABLE_TEXT_MESSAGE));
    if (routeConfig(request)?.unusableText === 'mark') {
      const query = mayCarry ? namesMatching(request.query, UNUSABLE) : new Set<string>();
      const body = form ? namesMatching(request.body, UNUSABLE) : new Set<string>();
      if (query.size > 0 || body.size > 0) request.unusableInputs = { query, body };
      return done();
    }
    let field = mayCarry ? fieldMatching(request.query, '', UNUSABLE) : null;
    if (field === null && form) {
      field = fieldMatching(request.body, '', UNUSABLE);
    }
    done(field === null ? undefined : invalidField(field || 'body', UNUSABLE_TEXT_MESSAGE));
  });
}

const isForm = (contentType: string | undefined) =>
  contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded') === true;
