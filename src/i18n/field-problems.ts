/**
 * What is wrong with a form field or a request field, by code, in both languages. The domain
 * raises a problem by its code and values (errors.ts `fieldProblem`); its English is the message
 * the API and the CLI show, and the account area words the code in the reader's language, so no
 * surface translates a sentence.
 */

import type { Locale } from './locales.ts';
import { fill, type Words } from './words.ts';

const FIELD_PROBLEMS = {
  'length.between': {
    en: 'must be {min} to {max} characters',
    fr: 'doit compter de {min} à {max} caractères',
  },
  'length.atMost': { en: 'must be at most {max} characters', fr: 'doit compter au plus {max} caractères' },
  'text.controlCharacters': {
    en: 'must not contain control characters (such as NUL)',
    fr: 'ne doit contenir aucun caractère de contrôle (comme NUL)',
  },
  'password.common': { en: 'is too common', fr: 'est trop courant' },
  'password.containsEmail': {
    en: 'must not contain your e-mail address',
    fr: 'ne doit pas contenir votre adresse e-mail',
  },
  'password.unchanged': {
    en: 'must not be the password it replaces',
    fr: 'ne doit pas être le mot de passe qu’il remplace',
  },
  'password.currentWrong': { en: 'is wrong', fr: 'est incorrect' },
  'password.mismatch': {
    en: 'does not match the new password',
    fr: 'ne correspond pas au nouveau mot de passe',
  },
  'email.taken': { en: 'already has an account', fr: 'a déjà un compte' },
  'email.invalid': { en: 'is not a valid e-mail address', fr: 'n’est pas une adresse e-mail valide' },
  'scopes.webhooksClosed': {
    en: '"webhooks:write" is only for brands whose webhook subscriptions are open: request access on the Webhooks page of the account area (the operator opens them with `dlv brands allow-webhooks`)',
    fr: '« webhooks:write » est réservé aux marques dont les abonnements webhook sont ouverts : demandez l’accès sur la page Webhooks',
  },
  // Recipient settings form (/account/notifications) and the brand's logo.
  'steps.unknown': { en: 'must be among {allowed}', fr: 'doit être parmi {allowed}' },
  // A brand's name and a sender name: what goes into a mail's From and subject.
  'displayName.characters': {
    en: 'must not contain line breaks, control characters or the characters < > "',
    fr: 'ne doit contenir ni retour à la ligne, ni caractère de contrôle, ni les caractères < > "',
  },
  'colour.format': {
    en: 'must be a colour written #rrggbb, such as #1a73e8',
    fr: 'doit être une couleur écrite #rrggbb, par exemple #1a73e8',
  },
  'locale.choice': { en: 'must be fr or en', fr: 'doit être fr ou en' },
  'logo.required': { en: 'choose an image file', fr: 'choisissez un fichier image' },
  'logo.tooLarge': { en: 'must be at most {max}', fr: 'doit peser au plus {max}' },
  'logo.format': {
    en: 'must be a PNG, JPEG or WebP image (SVG, GIF and other formats are refused)',
    fr: 'doit être une image PNG, JPEG ou WebP (SVG, GIF et les autres formats sont refusés)',
  },
  'logo.dimensions': {
    en: 'is too big: at most {max} × {max} pixels',
    fr: 'est trop grand : au plus {max} × {max} pixels',
  },
  'logo.unreadable': {
    en: 'could not be read as an image (damaged or truncated file)',
    fr: 'n’a pas pu être lu comme une image (fichier abîmé ou incomplet)',
  },
  // Rates form.
  'unit.type': {
    en: 'must be one of parcel, envelope, bulky, pallet (or colis, pli, encombrant, palette)',
    fr: 'doit être colis, pli, encombrant ou palette',
  },
  'unit.weight': {
    en: 'must be a positive weight such as "2.5kg" or "500g"',
    fr: 'doit être un poids positif, par exemple « 2,5kg » ou « 500g »',
  },
  'quantity.range': { en: 'must be an integer from 1 to {max}', fr: 'doit être un entier de 1 à {max}' },
  'destination.required': {
    en: 'give delivery_zip or delivery_address (a destination is required)',
    fr: 'est obligatoire',
  },
  'address.noPostcode': {
    en: 'must contain a valid French postcode',
    fr: 'doit contenir un code postal français valide',
  },
  'address.outsideZone': { en: 'must be in Île-de-France', fr: 'doit être en Île-de-France' },
  'address.elsewhere': {
    en: 'is in {found} (département {departement}), not in {postcode}: correct the postcode or the street',
    fr: 'se trouve au {found} (département {departement}), pas au {postcode} : corrigez le code postal ou la rue',
  },
  // Webhooks form (and the API's endpoint URLs).
  'url.invalid': { en: 'is not a valid absolute URL', fr: 'n’est pas une URL absolue valide' },
  'url.https': { en: 'must use https', fr: 'doit utiliser https' },
  'url.httpOrHttps': { en: 'must use http or https', fr: 'doit utiliser http ou https' },
  'url.credentials': {
    en: 'must not contain a user name or password',
    fr: 'ne doit contenir ni nom d’utilisateur ni mot de passe',
  },
  'url.notPublic': {
    en: '{host} is not an allowed address; webhooks are only delivered to public addresses',
    fr: 'n’est pas une adresse publique ({host}) : les webhooks ne partent que vers internet',
  },
  'url.unresolved': {
    en: 'host {host} could not be resolved{reason}',
    fr: 'l’hôte {host} est introuvable{reason}',
  },
  'events.none': { en: 'choose at least one event type', fr: 'choisissez au moins un type d’événement' },
  // Company form.
  'siren.digits': { en: 'must be 9 digits', fr: 'doit compter 9 chiffres' },
  'siren.checkDigit': {
    en: 'is not a valid SIREN (check digit): its 9 digits fail the Luhn check INSEE numbers pass, so one is probably mistyped',
    fr: 'n’est pas un SIREN valide (clé de contrôle) : ses 9 chiffres ne passent pas le contrôle de Luhn des numéros INSEE, l’un d’eux est sans doute mal saisi',
  },
  'siret.digits': { en: 'must be 14 digits', fr: 'doit compter 14 chiffres' },
  'siret.checkDigit': {
    en: 'is not a valid SIRET (its check digit does not match: a digit is probably mistyped)',
    fr: 'n’est pas un SIRET valide (sa clé ne correspond pas : un chiffre est sans doute mal saisi)',
  },
  'siret.needsSiren': { en: 'needs the SIREN it starts with', fr: 'demande le SIREN par lequel il commence' },
  'siret.notTheSirens': {
    en: 'must start with the SIREN {siren}',
    fr: 'doit commencer par le SIREN {siren}',
  },
  'address.postcodeCity': {
    en: 'needs a line with the postcode and the city, such as "75011 Paris" (an e-invoice carries them apart)',
    fr: 'doit comporter une ligne avec le code postal et la ville, par exemple « 75011 Paris » (une facture électronique les porte à part)',
  },
  'vat.format': { en: 'must be FR followed by 11 digits', fr: 'doit être FR suivi de 11 chiffres' },
  'vat.needsSiren': { en: 'needs the SIREN it is made from', fr: 'demande le SIREN dont il est tiré' },
  'vat.notTheSirens': {
    en: "must be the SIREN's VAT number, {expected}",
    fr: 'doit être le numéro de TVA de ce SIREN, {expected}',
  },
} satisfies Record<string, Words>;

type FieldProblemCode = keyof typeof FIELD_PROBLEMS;

/** A field's problem as the domain raises it: a code and the values its wording takes. */
export interface FieldProblem {
  code: FieldProblemCode;
  values?: Record<string, string | number>;
}

export const fieldProblemText = (locale: Locale, { code, values }: FieldProblem): string =>
  fill(FIELD_PROBLEMS[code][locale], values);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Each code's English as a pattern capturing its values, for problems stored as sentences.
const STORED = (Object.entries(FIELD_PROBLEMS) as [FieldProblemCode, Words][]).map(([code, words]) => {
  const names = [...words.en.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${escapeRegExp(words.en).replace(/\\\{\w+\\\}/g, '(.*)')}$`);
  return { code, names, pattern };
});

/**
 * The problem an English message states, for messages kept as sentences before codes existed
 * (the shop sync problems stored with the field's message): `null` when it states none of ours.
 */
export function problemOfMessage(message: string): FieldProblem | null {
  for (const { code, names, pattern } of STORED) {
    const match = pattern.exec(message);
    if (match) return { code, values: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return null;
}
