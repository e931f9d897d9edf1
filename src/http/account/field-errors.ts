import { PRESTASHOP_FR_PATTERNS } from '../../domain/accounts/messages-prestashop.ts';
import { isAppError } from '../../errors.ts';
import type { MessageKey } from '../../i18n/account.ts';
import { fieldError } from '../../i18n/field-problems.ts';
import type { FieldErrors } from './views/form-fields.ts';
import type { PageContext } from './views/layout.ts';

// Domain messages that carry a value, so the catalogue's exact-match translation cannot hold them.
const FR_PATTERNS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^must be the SIREN's VAT number, (FR\d{11})$/, (m) => `doit être le numéro de TVA de ce SIREN, ${m[1]}`],
  [
    /^(.*) is not an allowed address; webhooks are only delivered to public addresses$/,
    (m) => `n’est pas une adresse publique (${m[1]}) : les webhooks ne partent que vers internet`,
  ],
  [/^host (.*) could not be resolved(.*)$/, (m) => `l’hôte ${m[1]} est introuvable${m[2]}`],
  ...PRESTASHOP_FR_PATTERNS,
];

function localized(ctx: PageContext, message: string): string {
  if (ctx.locale !== 'fr') return message;
  for (const [pattern, say] of FR_PATTERNS) {
    const match = message.match(pattern);
    if (match) return say(match);
  }
  return message;
}

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
    errors[target.name] ??= fieldError(ctx.locale, ctx.t(target.label), localized(ctx, detail.message));
  }
  if (Object.keys(errors).length === 0) throw err;
  return errors;
}
