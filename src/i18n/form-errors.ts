import { type FieldProblem, fieldProblemText } from './field-problems.ts';
import type { Locale } from './locales.ts';
import type { ConnectorWording } from './words.ts';

// The shop connectors' field messages have no code yet, so their French is still found from their
// English sentence: the common ones here, each platform's in its wording table.
const COMMON_CONNECTOR_MESSAGES_FR: Record<string, string> = {
  'must be ours or all': 'doit être ours ou all',
  'must be yes or no': 'doit être oui ou non',
};

/** The forms' field errors in the page's language, knowing the field messages the shop platforms add. */
export interface FormErrorWords {
  /** A connector's message that carries a value, in French (the forms' own errors only): `null` if none matches. */
  connectorMessageByPattern(message: string): string | null;
  /**
   * "Label: problem" for a form, in the page's language: a coded problem in its words; else the
   * message as given (a connector's in French through its sentence, until it has a code).
   */
  fieldError(locale: Locale, label: string, detail: { message: string; problem?: FieldProblem }): string;
}

/**
 * The field errors' words, with those of the platforms given: each brings its own (its
 * `wording`), and the account area, which shows them, passes them here (src/http/account/words.ts).
 */
export function formErrorWords(platforms: readonly ConnectorWording[]): FormErrorWords {
  const messagesFr: Record<string, string> = Object.assign(
    { ...COMMON_CONNECTOR_MESSAGES_FR },
    ...platforms.map((w) => w.fieldMessagesFr ?? {}),
  );
  const patterns = platforms.flatMap((w) => w.frPatterns ?? []);
  return {
    connectorMessageByPattern(message) {
      for (const [pattern, say] of patterns) {
        const match = message.match(pattern);
        if (match) return say(match);
      }
      return null;
    },
    fieldError(locale, label, detail) {
      const text = detail.problem
        ? fieldProblemText(locale, detail.problem)
        : locale === 'fr'
          ? (messagesFr[detail.message] ?? detail.message)
          : detail.message;
      return locale === 'fr' ? `${label} : ${text}` : `${label}: ${text}`;
    },
  };
}
