/**
 * The languages every surface speaks (the account area, the tracking page, the account e-mails)
 * and the one way a request's language is chosen.
 */
const LOCALES = ['fr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** The locale `Intl` formats dates and numbers with: Paris French, British English (day first). */
export const INTL_LOCALE: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' };

/**
 * `asked` (a `?lang=` or a remembered choice) when it names a language we have; else the
 * preferred one of Accept-Language among ours (by weight, then order; `fr-FR` counts as `fr`);
 * else `fallback`, which each surface picks for its readers (French for recipients in
 * Île-de-France, English for the account area's developers). The header is read up to 500
 * characters: a longer one is not a reader's.
 */
export function negotiateLocale(
  acceptLanguage: string | undefined,
  options: { asked?: unknown; fallback: Locale },
): Locale {
  if (isLocale(options.asked)) return options.asked;
  let best: { locale: Locale; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').slice(0, 500).split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const primary = tag.trim().split('-')[0];
    if (!isLocale(primary)) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { locale: primary, q };
  }
  return best?.locale ?? options.fallback;
}
