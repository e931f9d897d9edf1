import { describe, expect, it } from 'vitest';
import { extractPostcode } from './extract-postcode.ts';

describe('extractPostcode', () => {
  const paris = [
    '75001',
    '75002',
    '75003',
    '75004',
    '75005',
    '75006',
    '75007',
    '75008',
    '75009',
    '75010',
    '75011',
    '75012',
    '75013',
    '75014',
    '75015',
    '75016',
    '75116',
    '75017',
    '75018',
    '75019',
    '75020',
  ];
  it.each(paris)('finds every Paris arrondissement: %s', (code) => {
    expect(extractPostcode(`1 rue de Rivoli ${code} Paris`)).toBe(code);
  });

  it.each([
    ['12 rue X 75011 Paris', '75011'],
    ['75011', '75011'],
    ['  75011  ', '75011'],
    ['10 avenue des Champs 75008 PARIS CEDEX 08', '75008'],
    ['10 avenue des Champs-Élysées, 75008 Paris Cedex 8', '75008'],
    ['Tour First, 1 place des Saisons 92400 COURBEVOIE CEDEX', '92400'],
    ['92100 Boulogne', '92100'],
    ['92100 Boulogne-Billancourt', '92100'],
    ['12, rue de la Paix,75002,Paris', '75002'],
    ['12 rue de la paix 75002 paris', '75002'],
    ['3 allée des Érables 93200 Saint-Denis', '93200'],
    ['5 bis, boulevard Saint-Germain, 75005, Paris, France', '75005'],
    ['Appt 42, 3e étage, 18 rue Oberkampf 75011 Paris', '75011'],
    ['7 rue du Général-de-Gaulle (bât. B) 94000 Créteil', '94000'],
    ['Résidence Les Tilleuls 12 av. Foch 78000 VERSAILLES', '78000'],
    ['ZA du Bois, 77000 Melun', '77000'],
    ['1 rue de la Mairie 91000 Évry-Courcouronnes', '91000'],
    ['2 place de la Gare 95000 Cergy', '95000'],
    ['F-75011 Paris', '75011'],
    ['75011Paris', '75011'],
    ['Paris 75011', '75011'],
    ['Paris (75011)', '75011'],
    ['Paris\t75011\n', '75011'],
    ['12 rue X, 75 011 Paris 75011', '75011'],
    ['3 quai Claude Bernard 69007 Lyon', '69007'],
    ['1 La Canebière 13001 Marseille', '13001'],
    // A 5-digit number first (a long road number, a PO box) must not beat the postcode after it.
    ['12345 route nationale 7, 77000 Melun', '77000'],
    ['BP 10001, 92100 Boulogne-Billancourt', '92100'],
    // Full-width digits pasted from another system.
    ['1 rue X ７５０１１ Paris', '75011'],
  ])('%s → %s', (address, expected) => {
    expect(extractPostcode(address)).toBe(expected);
  });

  it.each([
    ['', null],
    ['12 rue de la Paix Paris', null],
    ['7501 Paris', null],
    ['750111 Paris', null],
    ['tél 0612345678', null],
    ['Paris Cedex 08', null],
  ])('no postcode in %j', (address, expected) => {
    expect(extractPostcode(address)).toBe(expected);
  });

  // "75 011": the département, a space, then the rest, as many people write it.
  it.each([
    ['12 rue Oberkampf 75 011 Paris', '75011'],
    ['12 rue Oberkampf, 75 011, Paris', '75011'],
    ['75 011 Paris', '75011'],
    ['Paris 75 011', '75011'],
    ['3 rue Gallieni 92 100 Boulogne-Billancourt', '92100'],
    ['12 rue X 75\u00a0011 Paris', '75011'],
    ['12 rue X 75\u202f011 Paris', '75011'],
    // A plain five-digit postcode wins over a split one anywhere.
    ['12 rue X 75011 Paris, bâtiment 92 100', '75011'],
    ['12 rue X, 75 011 Paris 75012', '75012'],
    // The last split postcode, as for plain ones.
    ['Bât 53 000, 12 rue X 75 011 Paris', '75011'],
  ])('split postcode: %s → %s', (address, expected) => {
    expect(extractPostcode(address)).toBe(expected);
  });

  it.each([
    // Part of a longer run of digit groups: a phone number, an account number.
    'tél 06 12 345 678',
    '12 rue X Paris, tél 01 42 68 530',
    '12 345 678 Paris',
    // A house number just before it makes "3 75 011" ambiguous: not guessed.
    '3 75 011 Paris',
    // Not a real postcode once joined: a house number and a street number, a distance.
    '12 345 avenue de la République',
    'Lieu-dit 34 567, Paris',
    // Not two digits then three.
    '1 rue X 750 11 Paris',
    '1 rue X 75 0111 Paris',
    '1 rue X 7 5011 Paris',
  ])('no split postcode in %j', (address) => {
    expect(extractPostcode(address)).toBeNull();
  });

  it('skips 4- and 6-digit numbers that come after the postcode', () => {
    expect(extractPostcode('1 rue X 75011 Paris, code 1234, tél 012345')).toBe('75011');
  });
});
