/**
 * The courier pages' words (sign-in, the day's stops until the app shell replaces that page),
 * French and English side by side: a key without both is a type error. French is the default:
 * the couriers work in Île-de-France.
 */

import type { Locale } from './locales.ts';
import { type Words, wordingOf } from './words.ts';

const COURIER = {
  'app.name': { fr: 'Delivery Orders — livreurs', en: 'Delivery Orders — couriers' },
  'nav.lang': { fr: 'English', en: 'Français' },
  'signIn.title': { fr: 'Connexion livreur', en: 'Courier sign-in' },
  'signIn.email': { fr: 'E-mail', en: 'E-mail' },
  'signIn.password': { fr: 'Mot de passe', en: 'Password' },
  'signIn.submit': { fr: 'Se connecter', en: 'Sign in' },
  'signIn.refused': {
    fr: 'L’e-mail ou le mot de passe est incorrect.',
    en: 'The e-mail or the password is wrong.',
  },
  'signIn.disabled': {
    fr: 'Ce compte livreur a été désactivé.',
    en: 'This courier account has been disabled.',
  },
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
