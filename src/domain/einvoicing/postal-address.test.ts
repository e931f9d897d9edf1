import { describe, expect, it } from 'vitest';
import { parsePostalAddress, samePlace } from './postal-address.ts';

describe('parsePostalAddress', () => {
  it('reads street lines, postcode and city from the lines people type', () => {
    expect(parsePostalAddress('Acme SAS\n12 rue Oberkampf\n75011 Paris\nFrance')).toEqual({
      lines: ['Acme SAS', '12 rue Oberkampf'],
      postcode: '75011',
      city: 'Paris',
      country: 'FR',
    });
  });

  it('reads the SELLER_ADDRESS lines and a pickup address written on one line', () => {
    expect(parsePostalAddress('12 rue des Petites-Écuries|75010 Paris|France')?.postcode).toBe('75010');
    expect(parsePostalAddress('5 rue du Dépôt, 93200 Saint-Denis')).toEqual({
      lines: ['5 rue du Dépôt'],
      postcode: '93200',
      city: 'Saint-Denis',
      country: 'FR',
    });
  });

  it('finds no address without a postcode and a city', () => {
    expect(parsePostalAddress('12 rue Oberkampf\nParis')).toBeNull();
    expect(parsePostalAddress('')).toBeNull();
  });

  it('keeps at most three street lines', () => {
    expect(parsePostalAddress('a\nb\nc\nd\n75001 Paris')?.lines).toEqual(['a', 'b', 'c, d']);
  });

  it('compares places whatever the spacing and commas', () => {
    const a = parsePostalAddress('1 rue de Rivoli\n75001 Paris')!;
    const b = parsePostalAddress('1 rue de Rivoli, 75001 PARIS')!;
    expect(samePlace(a, b)).toBe(true);
    expect(samePlace(a, parsePostalAddress('2 rue de Rivoli 75001 Paris')!)).toBe(false);
  });
});
