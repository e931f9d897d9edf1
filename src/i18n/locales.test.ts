import { describe, expect, it } from 'vitest';
import { negotiateLocale } from './locales.ts';

describe('negotiateLocale (the one Accept-Language negotiator of every surface)', () => {
  it('takes the asked language first, when it is one of ours', () => {
    expect(negotiateLocale('en', { asked: 'fr', fallback: 'en' })).toBe('fr');
    expect(negotiateLocale('en', { asked: 'xx', fallback: 'fr' })).toBe('en');
    expect(negotiateLocale(undefined, { asked: ['fr'], fallback: 'en' })).toBe('en');
  });

  it('takes the heaviest of our languages in the header, the first among equals', () => {
    expect(negotiateLocale('de-DE, en;q=0.4, fr;q=0.8', { fallback: 'en' })).toBe('fr');
    expect(negotiateLocale('en-GB,en;q=0.9,fr;q=0.5', { fallback: 'fr' })).toBe('en');
    expect(negotiateLocale('FR-ca;q=0.5, EN;q=0.5', { fallback: 'en' })).toBe('fr');
    expect(negotiateLocale('de, en ; q=0.2', { fallback: 'fr' })).toBe('en');
  });

  it('falls back to the surface’s language when the header names none of ours usably', () => {
    for (const header of [
      undefined,
      '',
      '*',
      'de-DE',
      'fr;q=0',
      'en;q=abc',
      'frisian',
      `${'x,'.repeat(300)}fr`,
    ])
      expect(negotiateLocale(header, { fallback: 'en' }), String(header)).toBe('en');
    expect(negotiateLocale('de', { fallback: 'fr' })).toBe('fr');
  });
});
