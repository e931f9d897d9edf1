/**
 * What a courier reads when a scan is refused (domain/scans), French and English side by side. The
 * courier app translates the codes itself; these messages travel with them for any other app.
 */

import type { ScanProblem } from '../domain/scans/ports.ts';
import type { Locale } from './locales.ts';
import { fill, type Words } from './words.ts';

const SCAN_PROBLEM_WORDS: Record<ScanProblem, Words> = {
  unknown_code: {
    fr: 'Code inconnu : « {code} » n’est pas un de nos colis.',
    en: 'Unknown code: "{code}" is not one of our parcels.',
  },
  wrong_round: {
    fr: 'Le colis {ref} est sur la tournée d’un autre livreur aujourd’hui.',
    en: 'Parcel {ref} is on another courier’s round today.',
  },
  already_delivered: {
    fr: 'Le colis {ref} est déjà livré.',
    en: 'Parcel {ref} is already delivered.',
  },
  order_cancelled: {
    fr: 'Le colis {ref} a été annulé par l’expéditeur : ne pas le livrer.',
    en: 'Parcel {ref} was cancelled by the sender: do not deliver it.',
  },
  invalid_transition: {
    fr: 'Le colis {ref} est « {status} » : ce scan ne s’applique pas.',
    en: 'Parcel {ref} is "{status}": this scan does not apply.',
  },
  proof_required: {
    fr: 'Livraison de {ref} : une photo, une signature ou le nom de la personne qui a reçu le colis est nécessaire.',
    en: 'Delivery of {ref}: a photo, a signature or the name of who received the parcel is needed.',
  },
  test_order: {
    fr: 'Colis {ref} : commande de test (SPECIMEN), pas un vrai colis ; ne pas le livrer.',
    en: 'Parcel {ref}: a test order (SPECIMEN), not a real parcel; do not deliver it.',
  },
  too_old: {
    fr: 'Scan du {at} : plus de 7 jours, il n’est plus appliqué ; voir avec l’exploitation.',
    en: 'Scan of {at}: more than 7 days old, no longer applied; see the operations team.',
  },
};

export function scanProblemText(locale: Locale, code: ScanProblem, values: Record<string, string>): string {
  return fill(SCAN_PROBLEM_WORDS[code][locale], values);
}
