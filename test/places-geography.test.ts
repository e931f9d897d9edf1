import { describe, expect, it } from 'vitest';
import { lookupPostcode } from '../src/domain/coverage/postcodes.ts';
import { distanceMetres } from '../src/domain/places/location.ts';
import { isInIleDeFrance, postcodePoint } from '../src/domain/places/region.ts';
import { fixtureAddresses } from './support/fake-ban/addresses.ts';

/** The offline geography (src/domain/places/place-points.ts) against real addresses and towns. */
describe('the offline geography', () => {
  it('has a point for every Île-de-France postcode of La Poste’s list, none for others', async () => {
    const { createRequire } = await import('node:module');
    const entries = createRequire(import.meta.url)('codes-postaux/codes-postaux.json') as Array<{
      codePostal: string;
    }>;
    const idf = [...new Set(entries.map((e) => e.codePostal))].filter((p) => lookupPostcode(p)?.zone);
    expect(idf.length).toBeGreaterThan(500);
    for (const postcode of idf) expect(postcodePoint(postcode), postcode).not.toBeNull();
    expect(postcodePoint('69001')).toBeNull();
  });

  it('places every real address of the fixtures within 3 km of its postcode’s point, and in the region', () => {
    for (const { address, postcode, lat, lng } of fixtureAddresses()) {
      expect(distanceMetres({ lat, lng }, postcodePoint(postcode)!), address).toBeLessThan(3_000);
      expect(isInIleDeFrance({ lat, lng }), address).toBe(true);
    }
  });

  it.each([
    ['Chartres', 48.4439, 1.489],
    ['Senlis', 49.2069, 2.5865],
    ['Chantilly', 49.1944, 2.4711],
    ['Creil', 49.2597, 2.4749],
    ['Sens', 48.1975, 3.2833],
    ['Château-Thierry', 49.0464, 3.403],
    ['Lyon', 45.764, 4.8357],
    ['Paris, latitude and longitude swapped', 2.3522, 48.8566],
  ])('puts %s outside the region', (_, lat, lng) => {
    expect(isInIleDeFrance({ lat, lng })).toBe(false);
  });

  it.each([
    ['Fontainebleau', 48.4047, 2.7016],
    ['Provins', 48.5597, 3.2994],
    ['Mantes-la-Jolie', 48.9908, 1.7172],
    ['Rambouillet', 48.6445, 1.8296],
    ['Étampes', 48.4343, 2.1615],
    ['Beaumont-sur-Oise', 49.1425, 2.2864],
    ['Magny-en-Vexin', 49.1553, 1.7867],
    ['Roissy-Charles-de-Gaulle', 49.0097, 2.5479],
  ])('puts %s inside', (_, lat, lng) => {
    expect(isInIleDeFrance({ lat, lng })).toBe(true);
  });
});
