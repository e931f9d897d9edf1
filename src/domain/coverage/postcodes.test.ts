import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { communeInAddress, lookupPostcode, postcodeTable } from './postcodes.ts';
import { IDF_DEPARTEMENTS, zoneForDepartement } from './zones.ts';

describe('lookupPostcode', () => {
  it('knows Paris arrondissements, including 75116, as Paris', () => {
    for (const code of ['75001', '75008', '75015', '75016', '75116', '75020']) {
      expect(lookupPostcode(code)).toEqual({
        postcode: code,
        departement: '75',
        city: 'Paris',
        zone: 'paris',
      });
    }
  });

  it.each([
    ['75011', '75', 'paris'],
    ['92100', '92', 'petite_couronne'],
    ['93200', '93', 'petite_couronne'],
    ['94000', '94', 'petite_couronne'],
    ['77000', '77', 'grande_couronne'],
    ['78000', '78', 'grande_couronne'],
    ['91000', '91', 'grande_couronne'],
    ['95000', '95', 'grande_couronne'],
  ])('maps %s (département %s) to %s', (code, departement, zone) => {
    expect(lookupPostcode(code)).toMatchObject({ postcode: code, departement, zone });
  });

  it('gives readable commune names', () => {
    expect(lookupPostcode('92100')?.city).toBe('Boulogne-Billancourt');
    expect(lookupPostcode('78000')?.city).toBe('Versailles');
    expect(lookupPostcode('69001')?.city).toBe('Lyon');
    expect(lookupPostcode('13001')?.city).toBe('Marseille');
  });

  it('places postcodes outside Île-de-France in no zone', () => {
    expect(lookupPostcode('69001')).toMatchObject({ departement: '69', zone: null });
    expect(lookupPostcode('20000')).toMatchObject({ departement: '2A', zone: null });
    expect(lookupPostcode('97400')).toMatchObject({ departement: '974', zone: null });
    // 60xxx (Oise) borders Île-de-France but is not in it.
    expect(lookupPostcode('60000')).toMatchObject({ departement: '60', zone: null });
  });

  it.each(['75099', '75000', '75021', '00000', '99999', '92999', '7501', '750011', 'abcde', ''])(
    'rejects %j, which is not on the La Poste list',
    (code) => {
      expect(lookupPostcode(code)).toBeNull();
    },
  );
});

describe('communeInAddress', () => {
  it('picks the commune the address names among those the postcode serves', () => {
    expect(communeInAddress('77000', '3 rue de la Gare 77000 VAUX LE PENIL')).toBe('Vaux-le-Pénil');
    expect(communeInAddress('95000', '95000 pontoise')).toBe('Pontoise');
    expect(communeInAddress('77000', '77000 Paris')).toBeNull();
  });
});

describe('zoneForDepartement', () => {
  it('covers exactly the 8 Île-de-France départements', () => {
    expect([...IDF_DEPARTEMENTS].sort()).toEqual(['75', '77', '78', '91', '92', '93', '94', '95']);
    expect(zoneForDepartement('60')).toBeNull();
    expect(zoneForDepartement('2A')).toBeNull();
  });
});

describe('the compact postcode table (issue #25)', () => {
  it('is what the build wrote beside the compiled module: the service reads it instead of the whole list', () => {
    // The tests' global set-up built dist/ (test/support/build-setup.ts).
    const written = JSON.parse(
      readFileSync(new URL('../../../dist/domain/coverage/postcodes-table.json', import.meta.url), 'utf8'),
    );
    const table = postcodeTable();
    expect(written).toEqual(table);
    // Every postcode of the list, its département first, then its communes, the city first.
    expect(Object.keys(table).length).toBeGreaterThan(6000);
    expect(table['75016']).toEqual(['75', 'Paris']);
    expect(table['77000']?.slice(0, 1)).toEqual(['77']);
    expect(table['77000']).toContain('Vaux-le-Pénil');
  });
});
