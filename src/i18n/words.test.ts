import { describe, expect, it } from 'vitest';
import { translate } from './account.ts';
import { trackingWording } from './tracking.ts';
import { fill, type Words } from './words.ts';

describe('the i18n tables', () => {
  it('refuse a text without both languages at compile time', () => {
    // @ts-expect-error a text without its French is a type error
    const incomplete = { 'x.y': { en: 'x' } } satisfies Record<string, Words>;
    expect(incomplete['x.y'].en).toBe('x');
  });

  it('fill placeholders once, leaving what the values say untouched', () => {
    expect(fill('{a} and {b}', { a: '{b}', b: '$&' })).toBe('{b} and $&');
    expect(fill('{missing}!', {})).toBe('!');
  });

  it('give the account area and the tracking page their words in each language', () => {
    expect(translate('fr')('mail.inviteClash.subject', { brand: 'Acme' })).toBe(
      'Acme vous invite dans son espace de livraison',
    );
    expect(translate('de')('nav.home')).toBe('Home');
    expect(translate('fr')('no.such.key')).toBe('no.such.key');
    expect(trackingWording('fr')('tooManyBody', { seconds: 2, plural: 's' })).toBe(
      'Merci de patienter 2 secondes avant de réessayer.',
    );
    expect(trackingWording('en')('steps.picked_up')).toBe('Picked up');
  });
});
