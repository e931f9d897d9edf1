import { PRESTASHOP_FIELD_MESSAGES_FR } from '../domain/accounts/messages-prestashop.ts';
import type { Locale } from './locales.ts';

// The domain's field messages (English, shared with the API and the CLI) as the pages show them in French.
const FIELD_MESSAGES_FR: Record<string, string> = {
  'must be 12 to 128 characters': 'doit compter de 12 à 128 caractères',
  'is too common': 'est trop courant',
  'must not contain your e-mail address': 'ne doit pas contenir votre adresse e-mail',
  'is not a valid e-mail address': 'n’est pas une adresse e-mail valide',
  'must be 1 to 200 characters': 'doit compter de 1 à 200 caractères',
  'must be 1 to 100 characters': 'doit compter de 1 à 100 caractères',
  // Any field or search box (http/account/form.ts).
  'must not contain control characters (such as NUL)':
    'ne doit contenir aucun caractère de contrôle (comme NUL)',
  // Rates, webhooks and company forms.
  'must be one of parcel, envelope, bulky, pallet (or colis, pli, encombrant, palette)':
    'doit être colis, pli, encombrant ou palette',
  'must be a positive weight such as "2.5kg" or "500g"':
    'doit être un poids positif, par exemple « 2,5kg » ou « 500g »',
  'must be an integer from 1 to 1000': 'doit être un entier de 1 à 1000',
  'give delivery_zip or delivery_address (a destination is required)': 'est obligatoire',
  'is not a valid absolute URL': 'n’est pas une URL absolue valide',
  'must use https': 'doit utiliser https',
  'must use http or https': 'doit utiliser http ou https',
  'must not contain a user name or password': 'ne doit contenir ni nom d’utilisateur ni mot de passe',
  'choose at least one event type': 'choisissez au moins un type d’événement',
  'must be at most 2000 characters': 'doit compter au plus 2000 caractères',
  'must be at most 200 characters': 'doit compter au plus 200 caractères',
  'must be at most 500 characters': 'doit compter au plus 500 caractères',
  'must be 9 digits': 'doit compter 9 chiffres',
  'is not a valid SIREN (check digit)': 'n’est pas un SIREN valide (clé de contrôle)',
  'must be FR followed by 11 digits': 'doit être FR suivi de 11 chiffres',
  'needs the SIREN it is made from': 'demande le SIREN dont il est tiré',
  'must be in Île-de-France': 'doit être en Île-de-France',
  'must contain a valid French postcode': 'doit contenir un code postal français valide',
  'must be 1 to 500 characters': 'doit compter de 1 à 500 caractères',
  // Shops page.
  'must be your store’s name (acme) or its myshopify.com address (acme.myshopify.com)':
    'doit être le nom de votre boutique (acme) ou son adresse myshopify.com (acme.myshopify.com)',
  'must be ours or all': 'doit être ours ou all',
  'must be yes or no': 'doit être oui ou non',
  '"webhooks:write" is only for brands whose webhook subscriptions are open: request access on the Webhooks page of the account area (the operator opens them with `dlv brands allow-webhooks`)':
    '« webhooks:write » est réservé aux marques dont les abonnements webhook sont ouverts : demandez l’accès sur la page Webhooks',
  ...PRESTASHOP_FIELD_MESSAGES_FR,
};

/** "Field: problem" for a form, in the page's language (the domain's text when it has no translation). */
export function fieldError(locale: Locale, label: string, message: string): string {
  const text = locale === 'fr' ? (FIELD_MESSAGES_FR[message] ?? message) : message;
  return locale === 'fr' ? `${label} : ${text}` : `${label}: ${text}`;
}
