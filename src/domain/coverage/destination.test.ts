import { describe, expect, it } from 'vitest';
import { hasDestination, resolveDestination } from './destination.ts';

describe('resolveDestination', () => {
  it('resolves an address in each pricing zone', () => {
    expect(resolveDestination({ deliveryAddress: '12 rue X 75011 Paris' })).toEqual({
      kind: 'in_zone',
      postcode: '75011',
      city: 'Paris',
      zone: 'paris',
    });
    expect(resolveDestination({ deliveryAddress: '92100 Boulogne' })).toMatchObject({
      kind: 'in_zone',
      zone: 'petite_couronne',
    });
    expect(resolveDestination({ deliveryAddress: '1 rue X, 91000 Évry' })).toMatchObject({
      kind: 'in_zone',
      zone: 'grande_couronne',
    });
  });

  it('names the commune written in the address when the postcode serves several', () => {
    expect(resolveDestination({ deliveryAddress: '8 rue Pasteur 77000 Vaux-le-Pénil' })).toMatchObject({
      city: 'Vaux-le-Pénil',
    });
  });

  it.each([
    ['69001', 'Lyon'],
    ['13001', 'Marseille'],
    ['60000', 'Beauvais'],
  ])('%s is out of zone', (zip, city) => {
    expect(resolveDestination({ deliveryZip: zip })).toMatchObject({ kind: 'out_of_zone', postcode: zip });
    expect(resolveDestination({ deliveryAddress: `1 place Centrale ${zip} ${city}` })).toEqual({
      kind: 'out_of_zone',
      postcode: zip,
      city,
    });
  });

  it.each(['75099', '00000', '99999'])('%s is an unknown postcode', (zip) => {
    expect(resolveDestination({ deliveryZip: zip })).toEqual({ kind: 'unknown_postcode', postcode: zip });
    expect(resolveDestination({ deliveryAddress: `1 rue X ${zip} Paris` })).toEqual({
      kind: 'unknown_postcode',
      postcode: zip,
    });
  });

  it.each(['7501', '750011', '75 0111', '7 5011 1', 'abcde', '75011a', '75-011'])(
    'zip %j is not 5 digits',
    (zip) => {
      expect(resolveDestination({ deliveryZip: zip, deliveryAddress: '75011 Paris' })).toEqual({
        kind: 'unknown_postcode',
        postcode: null,
      });
    },
  );

  it.each(['75 011', ' 75 011 ', '75\u00a0011', '75\u202f011', '7 5 0 1 1'])(
    'reads zip %j as 75011',
    (zip) => {
      expect(resolveDestination({ deliveryZip: zip })).toMatchObject({ kind: 'in_zone', postcode: '75011' });
    },
  );

  it('trims the zip', () => {
    expect(resolveDestination({ deliveryZip: ' 75011 ' })).toMatchObject({
      kind: 'in_zone',
      postcode: '75011',
    });
  });

  it('lets the zip win over the address', () => {
    expect(
      resolveDestination({ deliveryZip: '69001', deliveryAddress: '1 rue X 75011 Paris' }),
    ).toMatchObject({
      kind: 'out_of_zone',
      postcode: '69001',
    });
    expect(
      resolveDestination({ deliveryZip: '75011', deliveryAddress: '1 place Bellecour 69002 Lyon' }),
    ).toEqual({
      kind: 'in_zone',
      postcode: '75011',
      city: 'Paris',
      zone: 'paris',
    });
  });

  it('falls back to the address when the zip is blank', () => {
    expect(resolveDestination({ deliveryZip: '  ', deliveryAddress: '75011 Paris' })).toMatchObject({
      postcode: '75011',
    });
    expect(resolveDestination({ deliveryZip: null, deliveryAddress: '75011 Paris' })).toMatchObject({
      postcode: '75011',
    });
  });

  it('reports an address without a postcode, or nothing at all, as unknown', () => {
    expect(resolveDestination({ deliveryAddress: '12 rue de la Paix, Paris' })).toEqual({
      kind: 'unknown_postcode',
      postcode: null,
    });
    expect(resolveDestination({})).toEqual({ kind: 'unknown_postcode', postcode: null });
  });

  it('tells whether a destination was given at all', () => {
    expect(hasDestination({})).toBe(false);
    expect(hasDestination({ deliveryZip: ' ', deliveryAddress: null })).toBe(false);
    expect(hasDestination({ deliveryZip: '75011' })).toBe(true);
    expect(hasDestination({ deliveryAddress: 'Paris' })).toBe(true);
  });
});
