import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.ts';

describe('the key an address is cached under', () => {
  it('is the same however the address is written', () => {
    const key = addressKey("12 Rue Saint-Germain l'Auxerrois, 75001 Paris");
    for (const other of [
      '12 rue saint germain l auxerrois 75001 PARIS',
      '12, R. St-Germain-l’Auxerrois — 75001  Paris',
      '１２ Rue Saint-Germain l’Auxerrois 75001 Paris',
    ])
      expect(addressKey(other)).toBe(key);
    expect(addressKey('3 bd Voltaire 75011 Paris')).toBe(addressKey('3 boulevard Voltaire 75011 Paris'));
    expect(addressKey('Cœur')).toBe('coeur');
  });

  it('differs as soon as a number or a word does', () => {
    const key = addressKey('12 rue Oberkampf 75011 Paris');
    expect(addressKey('14 rue Oberkampf 75011 Paris')).not.toBe(key);
    expect(addressKey('12 rue Oberkampf 75012 Paris')).not.toBe(key);
    expect(addressKey('12 rue Oberkampf bis 75011 Paris')).not.toBe(key);
  });
});

describe('words that are names of JavaScript objects', () => {
  it('are words like any other', () => {
    expect(addressKey('1 rue constructor 75011 Paris')).toBe('1 rue constructor 75011 paris');
    expect(addressKey('1 impasse __proto__ 75011 Paris')).toBe('1 impasse proto 75011 paris');
  });
});
