import { CONNECTOR_WORDINGS, CONNECTOR_WORDS } from '../../connectors/wordings.ts';
import { ACCOUNT_WORDS, type Translate, translatorOf } from '../../i18n/account.ts';
import { formErrorWords } from '../../i18n/form-errors.ts';

/**
 * The account area's words: its own (src/i18n/account.ts) and those each shop platform brings for
 * its part of the area (its `wording`, listed by the leaf src/connectors/wordings.ts). Composed
 * here, by the surface that shows them, so the i18n module depends on no connector.
 */
const WORDS = { ...ACCOUNT_WORDS, ...CONNECTOR_WORDS };

export type MessageKey = keyof typeof WORDS;

/** The account area's `t` in one language (an unknown one, such as a stored locale, reads English). */
export const translate: (locale: string) => Translate = translatorOf(WORDS);

/** The forms' field errors, the platforms' field messages included. */
export const { fieldError, connectorMessageByPattern } = formErrorWords(CONNECTOR_WORDINGS);
