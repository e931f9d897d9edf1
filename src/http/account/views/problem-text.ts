import type { SyncProblem } from '../../../connectors/connection.ts';
import { problemOfMessage } from '../../../i18n/field-problems.ts';
import { fieldError } from '../words.ts';
import type { PageContext } from './layout.ts';

/**
 * A sync problem in the page's language: the sentence of its `details.code` with its values, or
 * of its kind. A code this page has no words for (a newer connector's) shows the connector's own
 * English sentence rather than nothing.
 */
export function problemText(ctx: PageContext, problem: SyncProblem): string {
  const { t } = ctx;
  const { code, ...values } = problem.details;
  const kindText = t(`shops.problemText.${problem.kind}`);
  if (!code) return kindText;
  if (code === 'invalid_field' && values.field && values.problem) {
    // Stored as the field's English message: read back as the problem it states, when it is one of ours.
    const stated = problemOfMessage(values.problem);
    const detail = stated ? { message: values.problem, problem: stated } : { message: values.problem };
    return `${kindText} ${fieldError(ctx.locale, values.field, detail)}`;
  }
  const key = `shops.problemText.${code}`;
  const words = {
    ...values,
    ...(values.status ? { status: t(`orderStatus.${values.status}`) } : {}),
  };
  const text = t(key, words);
  return text === key ? problem.message : text;
}
