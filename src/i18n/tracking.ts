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
  testOrder: {
    fr: 'Commande de test : aucun colis ne sera livré.',
    en: 'Test order: no parcel will be delivered.',
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
  arrivalWindow: {
    fr: 'Passage du livreur',
    en: 'Courier arrives',
  },
  arrivalBetween: {
    fr: 'entre {from} et {to}',
    en: 'between {from} and {to}',
  },
  'stopsBefore.none': {
    fr: 'Votre livraison est la prochaine de la tournée.',
    en: 'Yours is the next delivery of the round.',
  },
  'stopsBefore.one': {
    fr: '1 arrêt avant le vôtre.',
    en: '1 stop before yours.',
  },
  'stopsBefore.many': {
    fr: '{count} arrêts avant le vôtre.',
    en: '{count} stops before yours.',
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
  // ── Self-service (decision 0007): the recipient changes the delivery, after a one-time code. ──
  'self.link': {
    fr: 'Modifier ma livraison',
    en: 'Change my delivery',
  },
  'self.linkHint': {
    fr: 'Consignes pour le livreur, lieu sûr ou autre jour de livraison.',
    en: 'Instructions for the courier, a safe place or another delivery day.',
  },
  'self.title': {
    fr: 'Modifier ma livraison',
    en: 'Change my delivery',
  },
  'self.intro': {
    fr: 'Pour protéger vos informations, nous vous envoyons d’abord un code à 6 chiffres.',
    en: 'To protect your details, we first send you a 6-digit code.',
  },
  'self.channelLegend': {
    fr: 'Où recevoir le code ?',
    en: 'Where should we send the code?',
  },
  'self.channel.sms': {
    fr: 'Par SMS, au numéro de téléphone donné avec la commande',
    en: 'By text message, to the phone number given with the order',
  },
  'self.channel.email': {
    fr: 'Par e-mail, à l’adresse donnée avec la commande',
    en: 'By e-mail, to the address given with the order',
  },
  'self.send': {
    fr: 'Recevoir un code',
    en: 'Send me a code',
  },
  'self.noChannel': {
    fr: 'Nous n’avons aucun moyen de vous envoyer un code pour cette commande. Contactez l’expéditeur.',
    en: 'We have no way to send you a code for this order. Please contact the sender.',
  },
  'self.closedTitle': {
    fr: 'Cette livraison ne peut plus être modifiée',
    en: 'This delivery can no longer be changed',
  },
  'self.closedBody': {
    fr: 'Le colis est en cours de livraison, livré, retourné ou annulé, ou son adresse est encore attendue.',
    en: 'The parcel is out for delivery, delivered, returned or cancelled, or its address is still awaited.',
  },
  'self.codeSent.email': {
    fr: 'Un code vous a été envoyé par e-mail. Il est valable 10 minutes.',
    en: 'A code was sent to you by e-mail. It is valid for 10 minutes.',
  },
  'self.codeSent.sms': {
    fr: 'Un code vous a été envoyé par SMS. Il est valable 10 minutes.',
    en: 'A code was sent to you by text message. It is valid for 10 minutes.',
  },
  'self.codeLabel': {
    fr: 'Code à 6 chiffres',
    en: '6-digit code',
  },
  'self.verify': {
    fr: 'Valider le code',
    en: 'Check the code',
  },
  'self.resend': {
    fr: 'Recevoir un autre code',
    en: 'Send me another code',
  },
  'self.refused.wrong_code': {
    fr: 'Ce n’est pas le bon code. Essais restants : {tries}.',
    en: 'That is not the right code. Tries left: {tries}.',
  },
  'self.refused.code_burnt': {
    fr: 'Trop d’essais avec ce code. Demandez-en un nouveau.',
    en: 'Too many tries with this code. Ask for a new one.',
  },
  'self.refused.code_expired': {
    fr: 'Ce code a expiré (10 minutes). Demandez-en un nouveau.',
    en: 'This code has expired (10 minutes). Ask for a new one.',
  },
  'self.refused.no_code': {
    fr: 'Demandez d’abord un code.',
    en: 'Ask for a code first.',
  },
  'self.refused.daily_limit': {
    fr: 'Cinq codes ont déjà été envoyés aujourd’hui pour cette commande. Réessayez demain.',
    en: 'Five codes were already sent for this order today. Please try again tomorrow.',
  },
  'self.refused.not_open': {
    fr: 'Cette livraison ne peut plus être modifiée.',
    en: 'This delivery can no longer be changed.',
  },
  'self.refused.no_address': {
    fr: 'Ce moyen d’envoi n’est pas disponible pour cette commande.',
    en: 'This way of sending is not available for this order.',
  },
  'self.refused.send_failed': {
    fr: 'Le code n’a pas pu être envoyé. Réessayez dans un instant.',
    en: 'The code could not be sent. Please try again in a moment.',
  },
  'self.refused.csrf': {
    fr: 'Ce formulaire a expiré. Réessayez.',
    en: 'This form has expired. Please try again.',
  },
  'self.formTitle': {
    fr: 'Vos choix pour la livraison',
    en: 'Your choices for the delivery',
  },
  'self.dayLegend': {
    fr: 'Jour de livraison (sans frais)',
    en: 'Delivery day (free of charge)',
  },
  'self.keepDay': {
    fr: 'Garder le jour prévu ({day})',
    en: 'Keep the planned day ({day})',
  },
  'self.keepNoDay': {
    fr: 'Garder le jour prévu',
    en: 'Keep the planned day',
  },
  'self.instructionsLabel': {
    fr: 'Consignes pour le livreur (code de porte, étage, interphone)',
    en: 'Instructions for the courier (door code, floor, intercom)',
  },
  'self.instructionsHint': {
    fr: '500 caractères au plus. Seul le livreur de votre colis les verra.',
    en: 'At most 500 characters. Only the courier of your parcel will see them.',
  },
  'self.safePlaceLegend': {
    fr: 'Si vous êtes absent, le colis peut être laissé',
    en: 'If you are out, the parcel may be left',
  },
  'self.safePlace.none': {
    fr: 'Nulle part : nouvelle tentative',
    en: 'Nowhere: try again another day',
  },
  'self.safePlace.neighbour': {
    fr: 'Chez un voisin',
    en: 'With a neighbour',
  },
  'self.safePlace.caretaker': {
    fr: 'Au gardien',
    en: 'With the caretaker',
  },
  'self.safePlace.behind_door': {
    fr: 'Derrière la porte',
    en: 'Behind the door',
  },
  'self.safePlace.letterbox_area': {
    fr: 'Près des boîtes aux lettres',
    en: 'By the letterboxes',
  },
  'self.safePlace.other': {
    fr: 'Ailleurs (précisez)',
    en: 'Somewhere else (say where)',
  },
  'self.safePlaceDetailLabel': {
    fr: 'Précisions (nom du voisin, étage…), 200 caractères au plus',
    en: 'Details (neighbour’s name, floor…), at most 200 characters',
  },
  'self.save': {
    fr: 'Enregistrer',
    en: 'Save',
  },
  'self.saved': {
    fr: 'Vos choix sont enregistrés.',
    en: 'Your choices are saved.',
  },
  'self.savedRescheduled': {
    fr: 'Vos choix sont enregistrés. Nouvelle date de livraison : {day}.',
    en: 'Your choices are saved. New delivery day: {day}.',
  },
  'self.back': {
    fr: 'Retour au suivi',
    en: 'Back to tracking',
  },
  'self.problem.instructions.too_long': {
    fr: 'Les consignes dépassent 500 caractères.',
    en: 'The instructions are longer than 500 characters.',
  },
  'self.problem.safe_place.unknown': {
    fr: 'Choisissez un lieu dans la liste.',
    en: 'Choose a place from the list.',
  },
  'self.problem.safe_place_detail.too_long': {
    fr: 'Les précisions dépassent 200 caractères.',
    en: 'The details are longer than 200 characters.',
  },
  'self.problem.safe_place_detail.without_place': {
    fr: 'Choisissez d’abord où laisser le colis.',
    en: 'Choose first where the parcel may be left.',
  },
  'self.problem.date.not_offered': {
    fr: 'Choisissez un des jours proposés.',
    en: 'Choose one of the days offered.',
  },
  'code.mailSubject': {
    fr: 'Votre code pour la livraison {brand}',
    en: 'Your code for the {brand} delivery',
  },
  'code.mailGreeting': {
    fr: 'Bonjour,',
    en: 'Hello,',
  },
  'code.mailBody': {
    fr: 'Voici le code pour modifier la livraison de votre colis {brand} :',
    en: 'Here is the code to change the delivery of your {brand} parcel:',
  },
  'code.mailExpiry': {
    fr: 'Il est valable {minutes} minutes. Ne le communiquez à personne.',
    en: 'It is valid for {minutes} minutes. Do not share it with anyone.',
  },
  'code.mailIgnore': {
    fr: 'Vous n’avez rien demandé ? Ignorez ce message : rien ne sera modifié.',
    en: 'Did not ask for it? Ignore this message: nothing will be changed.',
  },
  'code.sms': {
    fr: '{brand} : votre code de livraison est {code}. Valable 10 min. Ne le donnez à personne.',
    en: '{brand}: your delivery code is {code}. Valid for 10 min. Do not share it.',
  },
} satisfies Record<string, Words>;

export type TrackingKey = keyof typeof TRACKING;

/** The tracking page's `t` in one language; `tooManyBody` takes `seconds` and `plural` ('s' or ''). */
export const trackingWording = (locale: Locale) => wordingOf<TrackingKey>(TRACKING, locale);
