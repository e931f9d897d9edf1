import { isAppError } from '../../errors.ts';
import type { FieldErrors } from './views/form-fields.ts';
import type { PageContext } from './views/layout.ts';
import { connectorMessageByPattern, fieldError, type MessageKey } from './words.ts';

/**
 * A form's `invalid_request` as a message per form field, labelled and in the page's language;
 * `fields` maps the domain's field names to the form's (and their labels); a form's name is
 * understood too. Anything else is
 * rethrown, for the error page.
 */
export function fieldErrors(
  err: unknown,
  ctx: PageContext,
  fields: Record<string, { name: string; label: MessageKey }>,
): FieldErrors {
  if (!isAppError(err) || err.code !== 'invalid_request') throw err;
  const errors: FieldErrors = {};
  for (const detail of err.details ?? []) {
    // A domain field, or the form's own (a control character, refused as the form is read: form.ts).
    const target = fields[detail.field] ?? Object.values(fields).find((f) => f.name === detail.field);
    if (!target) throw err; // a field this form does not have: not the user's to fix here
    const said = !detail.problem && ctx.locale === 'fr' ? connectorMessageByPattern(detail.message) : null;
    errors[target.name] ??= fieldError(ctx.locale, ctx.t(target.label), said ? { message: said } : detail);
  }
  if (Object.keys(errors).length === 0) throw err;
  return errors;
}
