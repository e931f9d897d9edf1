import { describe, expect, it } from 'vitest';
import { ELSEWHERE_FROM, judge, knownPlaceOf, UNCERTAIN_BELOW } from './address-check.ts';

const candidate = (
  score: number,
  postcode: string,
  type: 'housenumber' | 'street' | 'municipality' = 'housenumber',
) =>
  knownPlaceOf({
    point: { lat: 48.8588281234, lng: 2.3795059876 },
    score,
    type,
    label: `12 Place Léon Blum ${postcode} Paris`,
    postcode,
    citycode: `751${postcode.slice(3)}`,
    city: 'Paris',
  });

describe('the address check (thresholds of docs/places.md)', () => {
  it('keeps a candidate to 6 decimals, its type as a precision', () => {
    expect(candidate(0.9, '75011').point).toEqual({ lat: 48.858828, lng: 2.379506 });
    expect(candidate(0.9, '75011', 'street').precision).toBe('street');
    expect(candidate(0.9, '75011', 'municipality').precision).toBe('locality');
  });

  it('places a good match without a warning, and flags one under the threshold', () => {
    expect(judge('75011', candidate(UNCERTAIN_BELOW, '75011'))).toMatchObject({
      kind: 'placed',
      warnings: [],
    });
    const low = judge('75011', candidate(UNCERTAIN_BELOW - 0.01, '75011'));
    expect(low).toMatchObject({ kind: 'uncertain', warnings: [{ code: 'address_uncertain' }] });
    expect(judge('75011', knownPlaceOf(null))).toMatchObject({
      kind: 'uncertain',
      warnings: [{ code: 'address_uncertain', message: expect.stringContaining('could not be found') }],
    });
  });

  it('flags another postcode of the same département, placed where found', () => {
    expect(judge('75012', candidate(0.9, '75011'))).toMatchObject({
      kind: 'placed',
      location: { source: 'geocoder', precision: 'rooftop' },
      warnings: [{ code: 'postcode_mismatch' }],
    });
  });

  it('refuses another département only when sure, flags it otherwise', () => {
    const elsewhere = { ...candidate(ELSEWHERE_FROM, '93200'), citycode: '93066' };
    expect(judge('75011', elsewhere)).toMatchObject({ kind: 'elsewhere', departement: '93' });
    expect(judge('75011', { ...elsewhere, score: ELSEWHERE_FROM - 0.01 })).toMatchObject({
      kind: 'uncertain',
      warnings: [{ code: 'postcode_mismatch' }],
    });
  });
});
