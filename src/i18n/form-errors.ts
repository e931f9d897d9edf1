import { CONNECTOR_FIELD_MESSAGES_FR, CONNECTOR_FR_PATTERNS } from '../connectors/wordings.ts';
import { type FieldProblem, fieldProblemText } from './field-problems.ts';
import type { Locale } from './locales.ts';

// The shop connectors' field messages have no code yet, so their French is still found from their
// English sentence: the common ones here, each platform's in its wording table.
const CONNECTOR_MESSAGES_FR: Record<string, string> = {
  'must be ours or all': 'doit être ours ou all',
  'must be yes or no': 'doit être oui ou non',
  ...CONNECTOR_FIELD_MESSAGES_FR,
};

/** A connector's message that carries a value, in French (the forms' own errors only): `null` if none matches. */
export function connectorMessageByPattern(message: string): string | null {
  for (const [pattern, say] of CONNECTOR_FR_PATTERNS) {
    const match = message.match(pattern);
    if (match) return say(match);
  }
  return null;
}

/**
 * "Label: problem" for a form, in the page's language: a coded problem in its words; else the
 * message as given (a connector's in French through its sentence, until it has a code).
 */
export function fieldError(
  locale: Locale,
  label: string,
  detail: { message: string; problem?: FieldProblem },
): string {
  const text = detail.problem
    ? fieldProblemText(locale, detail.problem)
    : locale === 'fr'
      ? (CONNECTOR_MESSAGES_FR[detail.message] ?? detail.message)
      : detail.message;
  return locale === 'fr' ? `${label} : ${text}` : `${label}: ${text}`;
}
