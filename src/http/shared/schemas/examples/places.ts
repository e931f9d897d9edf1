import { addressWarning } from '../../../../domain/places/warnings.ts';
import type { OperationExamples } from './types.ts';

// A real address and its point (test/fixtures/addresses/paris.csv); the scores are BAN-like.
const LEON_BLUM = { lat: 48.858828, lng: 2.379506 };

export const ADDRESS_EXAMPLES: Record<string, OperationExamples> = {
  validateAddress: {
    request: {
      address: {
        summary: 'An address as typed at checkout',
        value: { address: '12 place Leon Blum 75011 Paris' },
      },
      postcodeApart: {
        summary: 'The postcode typed in its own field',
        value: { address: '12 place Léon Blum, Paris', postcode: '75011' },
      },
    },
    responses: {
      200: {
        placed: {
          summary: 'Found at its house number',
          value: {
            ok: true,
            available: true,
            reason: null,
            address: '12 Place Léon Blum 75011 Paris',
            postcode: '75011',
            city: 'Paris',
            zone: 'paris',
            sort_code: 'PAR-11',
            score: 0.96,
            precision: 'rooftop',
            location: { ...LEON_BLUM, precision: 'rooftop', source: 'geocoder' },
            warnings: [],
          },
        },
        flagged: {
          summary: 'Found, but in another postcode than the one written',
          value: {
            ok: true,
            available: true,
            reason: null,
            address: '12 Place Léon Blum 75011 Paris',
            postcode: '75012',
            city: 'Paris',
            zone: 'paris',
            sort_code: 'PAR-12',
            score: 0.86,
            precision: 'rooftop',
            location: { ...LEON_BLUM, precision: 'rooftop', source: 'geocoder' },
            warnings: [addressWarning.postcodeMismatch('75012', '75011', '12 Place Léon Blum 75011 Paris')],
          },
        },
        geocoderDown: {
          summary: 'The geocoder is unavailable: placed at its postcode',
          value: {
            ok: true,
            available: true,
            reason: null,
            address: '12 place Leon Blum 75011 Paris',
            postcode: '75011',
            city: 'Paris',
            zone: 'paris',
            sort_code: 'PAR-11',
            score: null,
            precision: 'postcode',
            location: { lat: 48.8574, lng: 2.3795, precision: 'postcode', source: 'postcode' },
            warnings: [addressWarning.unavailable()],
          },
        },
        outOfZone: {
          summary: 'Outside Île-de-France',
          value: {
            ok: true,
            available: false,
            reason: {
              code: 'out_of_zone',
              message: '69001 (Lyon) is outside the delivery zone: only Île-de-France is served.',
            },
            address: '1 place Bellecour 69001 Lyon',
            postcode: '69001',
            city: 'Lyon',
            zone: null,
            sort_code: null,
            score: null,
            precision: null,
            location: null,
            warnings: [],
          },
        },
      },
    },
  },
};
