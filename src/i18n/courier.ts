/**
 * The courier pages' words (sign-in, the day's stops until the app shell replaces that page),
 * French and English side by side: a key without both is a type error. French is the default:
 * the couriers work in Île-de-France.
 */

import type { Locale } from './locales.ts';
import { type Words, wordingOf } from './words.ts';

const COURIER = {
  // The app's own name (i18n/courier-app.ts): the pages lead to it and look like it.
  'app.name': { fr: 'Tournée coursier', en: 'Courier round' },
  'nav.lang': { fr: 'English', en: 'Français' },
  'signIn.title': { fr: 'Connexion livreur', en: 'Courier sign-in' },
  'signIn.email': { fr: 'E-mail', en: 'E-mail' },
  'signIn.password': { fr: 'Mot de passe', en: 'Password' },
  'signIn.submit': { fr: 'Se connecter', en: 'Sign in' },
  'signIn.refused': {
    fr: 'Connexion refusée : l’e-mail ou le mot de passe est incorrect, le mot de passe à usage unique a déjà servi ou a expiré, ou le compte est désactivé.',
    en: 'Sign-in refused: the e-mail or the password is wrong, the one-time password was already used or has expired, or the account is disabled.',
  },
  'signIn.help': {
    fr: 'Mot de passe oublié, ou mot de passe à usage unique expiré ? Demandez-en un nouveau à votre exploitant.',
    en: 'Forgot your password, or your one-time password expired? Ask your operator for a new one.',
  },
  'password.firstTitle': { fr: 'Choisissez votre mot de passe', en: 'Choose your password' },
  'password.firstIntro': {
    fr: 'Le mot de passe reçu de votre exploitant ne sert qu’une fois : choisissez le vôtre pour continuer.',
    en: 'The password your operator gave you works only once: choose your own to continue.',
  },
  'password.changeTitle': { fr: 'Changer de mot de passe', en: 'Change your password' },
  'password.current': { fr: 'Mot de passe actuel', en: 'Current password' },
  'password.new': { fr: 'Nouveau mot de passe', en: 'New password' },
  'password.confirm': { fr: 'Nouveau mot de passe, encore', en: 'New password, again' },
  'password.rules': {
    fr: 'De 12 à 128 caractères, pas un mot de passe courant, sans votre e-mail. Une phrase de quelques mots se retient et se tape bien.',
    en: '12 to 128 characters, not a common password, without your e-mail. A phrase of a few words is easy to remember and to type.',
  },
  'password.submit': { fr: 'Enregistrer mon mot de passe', en: 'Save my password' },
  'password.back': { fr: 'Retour à ma journée', en: 'Back to my day' },
  'signOut.submit': { fr: 'Se déconnecter', en: 'Sign out' },
  'day.title': { fr: 'Ma journée du {date}', en: 'My day, {date}' },
  'day.none': {
    fr: 'Aucune tournée ne vous est attribuée ce jour.',
    en: 'No round is assigned to you that day.',
  },
  'day.round': { fr: 'Tournée {name}', en: 'Round {name}' },
  'day.pickup': { fr: 'Enlèvement', en: 'Pickup' },
  'day.delivery': { fr: 'Livraison', en: 'Delivery' },
  'day.parcels': { fr: '{count} colis', en: '{count} parcel(s)' },
  'day.window': { fr: 'entre {start} et {end}', en: 'between {start} and {end}' },
  'error.title': { fr: 'Erreur', en: 'Error' },
  'error.csrf': {
    fr: 'Le formulaire a expiré : rechargez la page et recommencez.',
    en: 'The form has expired: reload the page and try again.',
  },
  'error.404': { fr: 'Cette page n’existe pas.', en: 'This page does not exist.' },
  'error.429': {
    fr: 'Trop de tentatives : patientez quelques minutes.',
    en: 'Too many attempts: wait a few minutes.',
  },
  'error.400': { fr: 'La demande est invalide.', en: 'The request is not valid.' },
  'error.500': {
    fr: 'Une erreur est survenue : réessayez dans un instant.',
    en: 'Something went wrong: try again in a moment.',
  },
  'error.back': { fr: 'Retour', en: 'Back' },
} satisfies Record<string, Words>;

export type CourierKey = keyof typeof COURIER;

/** The courier pages' `t` in one language. */
export const courierWording = (locale: Locale) => wordingOf<CourierKey>(COURIER, locale);
