/**
 * The tracking page's words, French and English side by side (a key without both is a type
 * error). French is the page's default: recipients are in Île-de-France.
 */

import type { Locale } from './locales.ts';
import { type Words, wordingOf } from './words.ts';

const TRACKING = {
  pageTitle: {
    fr: 'Suivi de votre colis {brand}',
    en: 'Track your {brand} parcel',
  },
  deliveredBy: {
    fr: 'Livraison Île-de-France',
    en: 'Île-de-France delivery',
  },
  trackingNumber: {
    fr: 'N° de suivi',
    en: 'Tracking number',
  },
  promised: {
    fr: 'Livraison prévue',
    en: 'Expected delivery',
  },
  deliveredOn: {
    fr: 'Livré le',
    en: 'Delivered on',
  },
  destination: {
    fr: 'Destination',
    en: 'Destination',
  },
  proofPhoto: {
    fr: 'Photo de la livraison',
    en: 'Delivery photo',
  },
  proofPhotoAlt: {
    fr: 'Photo prise par le livreur à la livraison du colis',
    en: 'Photo taken by the courier when the parcel was delivered',
  },
  addressPending: {
    fr: 'Adresse de livraison en attente',
    en: 'Delivery address pending',
  },
  history: {
    fr: 'Suivi',
    en: 'Tracking',
  },
  switchTo: {
    fr: 'English',
    en: 'Français',
  },
  switchLabel: {
    fr: 'View this page in English',
    en: 'Voir cette page en français',
  },
  notFoundTitle: {
    fr: 'Lien de suivi introuvable',
    en: 'Tracking link not found',
  },
  notFoundBody: {
    fr: 'Ce lien de suivi n’existe pas ou n’est plus valide. Vérifiez qu’il a été copié en entier depuis le message reçu.',
    en: 'This tracking link does not exist or is no longer valid. Check that it was copied in full from the message you received.',
  },
  tooManyTitle: {
    fr: 'Trop de requêtes',
    en: 'Too many requests',
  },
  tooManyBody: {
    fr: 'Merci de patienter {seconds} seconde{plural} avant de réessayer.',
    en: 'Please wait {seconds} second{plural} before trying again.',
  },
  errorTitle: {
    fr: 'Service momentanément indisponible',
    en: 'Temporarily unavailable',
  },
  errorBody: {
    fr: 'Le suivi ne peut pas être affiché pour le moment. Réessayez dans quelques instants.',
    en: 'Tracking cannot be shown right now. Please try again in a moment.',
  },
  'headline.awaiting_address': {
    fr: 'Commande enregistrée',
    en: 'Order received',
  },
  'headline.pending': {
    fr: 'Commande enregistrée',
    en: 'Order received',
  },
  'headline.picked_up': {
    fr: 'Colis pris en charge',
    en: 'Parcel picked up',
  },
  'headline.in_transit': {
    fr: 'Colis en transit',
    en: 'Parcel in transit',
  },
  'headline.out_for_delivery': {
    fr: 'En cours de livraison',
    en: 'Out for delivery',
  },
  'headline.failed_attempt': {
    fr: 'Tentative de livraison échouée',
    en: 'Delivery attempt failed',
  },
  'headline.delivered': {
    fr: 'Colis livré',
    en: 'Delivered',
  },
  'headline.returned': {
    fr: 'Retourné à l’expéditeur',
    en: 'Returned to sender',
  },
  'headline.cancelled': {
    fr: 'Livraison annulée',
    en: 'Delivery cancelled',
  },
  'detail.awaiting_address': {
    fr: 'Le colis sera pris en charge dès que l’adresse de livraison sera confirmée.',
    en: 'The parcel will be picked up once the delivery address is confirmed.',
  },
  'detail.pending': {
    fr: 'Le colis attend d’être pris en charge par notre livreur.',
    en: 'The parcel is waiting to be picked up by our courier.',
  },
  'detail.picked_up': {
    fr: 'Notre livreur a récupéré le colis.',
    en: 'Our courier has collected the parcel.',
  },
  'detail.in_transit': {
    fr: 'Le colis est en route vers votre zone de livraison.',
    en: 'The parcel is on its way to your delivery area.',
  },
  'detail.out_for_delivery': {
    fr: 'Le livreur est en route : le colis arrive aujourd’hui.',
    en: 'The courier is on the way: your parcel arrives today.',
  },
  'detail.failed_attempt': {
    fr: 'Le livreur n’a pas pu remettre le colis. Une nouvelle tentative est prévue.',
    en: 'The courier could not hand over the parcel. Another attempt is planned.',
  },
  'detail.delivered': {
    fr: 'Le colis a été remis à son destinataire.',
    en: 'The parcel has been handed over to its recipient.',
  },
  'detail.returned': {
    fr: 'Le colis a été renvoyé à l’expéditeur.',
    en: 'The parcel has been sent back to the sender.',
  },
  'detail.cancelled': {
    fr: 'Cette livraison a été annulée par l’expéditeur.',
    en: 'This delivery was cancelled by the sender.',
  },
  'steps.created': {
    fr: 'Commande enregistrée',
    en: 'Order received',
  },
  'steps.picked_up': {
    fr: 'Pris en charge',
    en: 'Picked up',
  },
  'steps.in_transit': {
    fr: 'En transit',
    en: 'In transit',
  },
  'steps.out_for_delivery': {
    fr: 'En cours de livraison',
    en: 'Out for delivery',
  },
  'steps.delivered': {
    fr: 'Livré',
    en: 'Delivered',
  },
  'steps.failed_attempt': {
    fr: 'Tentative de livraison échouée',
    en: 'Delivery attempt failed',
  },
  'steps.returned': {
    fr: 'Retourné à l’expéditeur',
    en: 'Returned to sender',
  },
  'steps.cancelled': {
    fr: 'Annulé',
    en: 'Cancelled',
  },
} satisfies Record<string, Words>;

export type TrackingKey = keyof typeof TRACKING;

/** The tracking page's `t` in one language; `tooManyBody` takes `seconds` and `plural` ('s' or ''). */
export const trackingWording = (locale: Locale) => wordingOf<TrackingKey>(TRACKING, locale);
