import type { Words } from './words.ts';

/**
 * The account area's words about places (SPEC §11): an order's location and its address's
 * warnings, FR and EN side by side, merged into the account table (account.ts).
 */
export const PLACES_WORDS = {
  'place.location': { en: 'Location', fr: 'Position' },
  'place.none': { en: 'Not placed yet', fr: 'Pas encore placée' },
  'place.value': { en: '{lat}, {lng} — {precision}, {source}', fr: '{lat}, {lng} — {precision}, {source}' },
  'place.map': { en: 'see on a map', fr: 'voir sur une carte' },
  'place.precision.rooftop': { en: 'at the house number', fr: 'au numéro' },
  'place.precision.street': { en: 'at the street', fr: 'à la rue' },
  'place.precision.locality': { en: 'at the place or commune', fr: 'au lieu-dit ou à la commune' },
  'place.precision.postcode': { en: 'at the postcode', fr: 'au code postal' },
  'place.source.brand': { en: 'given by you', fr: 'donnée par vous' },
  'place.source.geocoder': { en: 'found by the geocoder', fr: 'trouvée par le géocodeur' },
  'place.source.delivery': {
    en: 'where an earlier parcel was delivered',
    fr: 'là où un colis précédent a été livré',
  },
  'place.source.postcode': { en: 'the postcode’s point', fr: 'le point du code postal' },
  'place.warnings': { en: 'Address check', fr: 'Vérification de l’adresse' },
  'place.warningsHint': {
    en: 'The order goes on: correct the address with PATCH /orders/{ref} (API), which checks it again.',
    fr: 'La commande suit son cours : corrigez l’adresse avec PATCH /orders/{ref} (API), qui la vérifie de nouveau.',
  },
  'place.warning.address_uncertain': {
    en: 'The address could not be found surely: check the street, the number and the postcode.',
    fr: 'L’adresse n’a pas pu être trouvée avec certitude : vérifiez la rue, le numéro et le code postal.',
  },
  'place.warning.postcode_mismatch': {
    en: 'The address is found in another postcode than the one written: check the postcode.',
    fr: 'L’adresse est trouvée dans un autre code postal que celui indiqué : vérifiez le code postal.',
  },
  'place.warning.address_check_pending': {
    en: 'The address is being checked; the parcel is placed at its postcode meanwhile.',
    fr: 'L’adresse est en cours de vérification ; le colis est placé à son code postal en attendant.',
  },
  'place.warning.address_check_unavailable': {
    en: 'The address could not be checked (the geocoder is unavailable); it will be checked again.',
    fr: 'L’adresse n’a pas pu être vérifiée (géocodeur indisponible) ; elle le sera de nouveau.',
  },
} satisfies Record<string, Words>;
