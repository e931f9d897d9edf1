import type { Locale } from './locales.ts';

/** One text in both languages, side by side: a table of these cannot lack either. */
export interface Words {
  fr: string;
  en: string;
}

/**
 * What a shop platform adds to the i18n module (src/connectors/<platform>/wording.ts): its words in
 * the account area, and its field messages in French (found from their English sentence, as they
 * carry no code yet).
 */
export interface ConnectorWording {
  account: Record<string, Words>;
  fieldMessagesFr?: Record<string, string>;
  /** Field messages that carry a value: the English pattern and its French. */
  frPatterns?: readonly (readonly [RegExp, (m: RegExpMatchArray) => string])[];
}

/** A text with its `{name}` placeholders filled (an unknown name is left empty). */
export const fill = (text: string, values: Record<string, string | number> = {}): string =>
  text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));

/** Two one-language tables with the same keys (the connectors' wording files) as one side-by-side table. */
export function sideBySide<K extends string>(en: Record<K, string>, fr: Record<K, string>): Record<K, Words> {
  const table = {} as Record<K, Words>;
  for (const key of Object.keys(en) as K[]) table[key] = { en: en[key], fr: fr[key] };
  return table;
}

/** `t(key, values)` over a table, in one language: the key's type is the table's, so a slip is a type error. */
export function wordingOf<K extends string>(table: Record<K, Words>, locale: Locale) {
  return (key: K, values?: Record<string, string | number>): string => fill(table[key][locale], values);
}
