import type { Locale } from './locales.ts';

/** One text in both languages, side by side: a table of these cannot lack either. */
export interface Words {
  fr: string;
  en: string;
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
