/**
 * What a recipient reads from us (decision 0007): the notifications (e-mail and SMS) and the
 * unsubscribe page, French and English side by side; and the account area's "Messages to the
 * recipient" on an order's page. The brand chooses the messages' language; the unsubscribe page
 * follows the reader's browser.
 */

import type { Locale } from './locales.ts';
import { type Words, wordingOf } from './words.ts';

const RECIPIENTS = {
  'subject.confirmed': {
    fr: '{brand} : votre livraison est confirmée',
    en: '{brand}: your delivery is confirmed',
  },
  'subject.out_for_delivery': {
    fr: '{brand} : votre colis arrive aujourd’hui',
    en: '{brand}: your parcel arrives today',
  },
  'subject.eta_changed': {
    fr: '{brand} : nouvel horaire de livraison',
    en: '{brand}: a new delivery time',
  },
  'subject.delivered': {
    fr: '{brand} : votre colis a été livré',
    en: '{brand}: your parcel has been delivered',
  },
  'subject.failed_attempt': {
    fr: '{brand} : nous n’avons pas pu livrer votre colis',
    en: '{brand}: we could not deliver your parcel',
  },
  'heading.confirmed': { fr: 'Votre livraison est confirmée', en: 'Your delivery is confirmed' },
  'heading.out_for_delivery': { fr: 'Votre colis arrive aujourd’hui', en: 'Your parcel arrives today' },
  'heading.eta_changed': { fr: 'Votre livraison change d’horaire', en: 'Your delivery time has changed' },
  'heading.delivered': { fr: 'Votre colis a été livré', en: 'Your parcel has been delivered' },
  'heading.failed_attempt': { fr: 'Livraison manquée', en: 'We missed you' },
  'body.confirmed': {
    fr: 'Votre colis {brand} sera livré le {date}.',
    en: 'Your {brand} parcel will be delivered on {date}.',
  },
  'body.out_for_delivery.window': {
    fr: 'Notre livreur passera aujourd’hui entre {from} et {to}.',
    en: 'Our courier will come today between {from} and {to}.',
  },
  'body.out_for_delivery.day': {
    fr: 'Notre livreur est en route : votre colis {brand} arrive aujourd’hui.',
    en: 'Our courier is on the way: your {brand} parcel arrives today.',
  },
  'body.eta_changed.window': {
    fr: 'Notre livreur passera finalement aujourd’hui entre {from} et {to}.',
    en: 'Our courier will now come today between {from} and {to}.',
  },
  'body.eta_changed.day': {
    fr: 'L’horaire de passage de notre livreur a changé : votre colis {brand} arrive toujours aujourd’hui.',
    en: 'Our courier’s time has changed: your {brand} parcel still arrives today.',
  },
  'body.delivered': {
    fr: 'Votre colis {brand} a été remis le {date} à {time}.',
    en: 'Your {brand} parcel was handed over on {date} at {time}.',
  },
  'body.failed_attempt': {
    fr: 'Notre livreur est passé mais n’a pas pu vous remettre votre colis {brand}. Une nouvelle tentative aura lieu le prochain jour ouvré ; vous pouvez aussi choisir un autre jour.',
    en: 'Our courier came by but could not hand over your {brand} parcel. We will try again on the next business day; you can also choose another day.',
  },
  'button.track': { fr: 'Suivre mon colis', en: 'Track my parcel' },
  'button.delivered': { fr: 'Voir la livraison', en: 'See the delivery' },
  'button.change': { fr: 'Choisir un autre jour', en: 'Choose another day' },
  'link.track': { fr: 'Suivre le colis : {url}', en: 'Track the parcel: {url}' },
  trackingRef: { fr: 'N° de suivi : {ref}', en: 'Tracking number: {ref}' },
  'footer.why': {
    fr: 'Vous recevez ce message car {brand} nous a confié la livraison de votre colis.',
    en: 'You receive this message because {brand} entrusted us with the delivery of your parcel.',
  },
  'footer.unsubscribe': { fr: 'Ne plus recevoir ces e-mails', en: 'Stop these e-mails' },
  'footer.unsubscribeText': {
    fr: 'Ne plus recevoir ces e-mails : {url}',
    en: 'Stop these e-mails: {url}',
  },
  'footer.carrier': { fr: 'Livraison assurée par {carrier}', en: 'Delivered by {carrier}' },
  // SMS: GSM-7 only (no curly apostrophe), short; the brand's name and the link are added around.
  'sms.confirmed': {
    fr: 'votre colis sera livre le {date}. Suivi :',
    en: 'your parcel will be delivered on {date}. Track:',
  },
  'sms.out_for_delivery.window': {
    fr: "votre colis arrive aujourd'hui entre {from} et {to}. Suivi :",
    en: 'your parcel arrives today between {from} and {to}. Track:',
  },
  'sms.out_for_delivery.day': {
    fr: "votre colis arrive aujourd'hui. Suivi :",
    en: 'your parcel arrives today. Track:',
  },
  'sms.eta_changed.window': {
    fr: "votre colis arrivera finalement aujourd'hui entre {from} et {to}. Suivi :",
    en: 'your parcel will now arrive today between {from} and {to}. Track:',
  },
  'sms.eta_changed.day': {
    fr: "l'horaire de votre livraison a change, elle a toujours lieu aujourd'hui. Suivi :",
    en: 'your delivery time has changed, it is still today. Track:',
  },
  'sms.delivered': {
    fr: 'votre colis a ete livre. Details :',
    en: 'your parcel has been delivered. Details:',
  },
  'sms.failed_attempt': {
    fr: "nous n'avons pas pu livrer votre colis. Choisir un autre jour :",
    en: 'we could not deliver your parcel. Choose another day:',
  },
  // The unsubscribe page.
  'unsubscribe.title': { fr: 'Se désabonner', en: 'Unsubscribe' },
  'unsubscribe.ask.email': {
    fr: 'Vous ne recevrez plus aucun e-mail de suivi de livraison à cette adresse, quelle que soit la boutique.',
    en: 'You will no longer receive any delivery e-mail at this address, whatever the shop.',
  },
  'unsubscribe.ask.sms': {
    fr: 'Vous ne recevrez plus aucun SMS de suivi de livraison à ce numéro, quelle que soit la boutique.',
    en: 'You will no longer receive any delivery text message at this number, whatever the shop.',
  },
  'unsubscribe.button': { fr: 'Me désabonner', en: 'Unsubscribe me' },
  'unsubscribe.doneTitle': { fr: 'Vous êtes désabonné', en: 'You are unsubscribed' },
  'unsubscribe.done.email': {
    fr: 'Nous n’enverrons plus d’e-mail de suivi de livraison à cette adresse. Le lien de suivi de vos colis reste disponible.',
    en: 'We will send no more delivery e-mails to this address. Your parcels’ tracking links still work.',
  },
  'unsubscribe.done.sms': {
    fr: 'Nous n’enverrons plus de SMS de suivi de livraison à ce numéro. Le lien de suivi de vos colis reste disponible.',
    en: 'We will send no more delivery text messages to this number. Your parcels’ tracking links still work.',
  },
  'unsubscribe.invalidTitle': { fr: 'Lien de désabonnement invalide', en: 'Unsubscribe link not valid' },
  'unsubscribe.invalid': {
    fr: 'Ce lien n’est pas valide. Vérifiez qu’il a été copié en entier depuis l’e-mail reçu.',
    en: 'This link is not valid. Check that it was copied in full from the e-mail you received.',
  },
  'unsubscribe.badForm': {
    fr: 'La demande n’a pas pu être comprise. Utilisez le bouton ci-dessous.',
    en: 'The request could not be understood. Please use the button below.',
  },
  // The account area's order page.
  'account.title': { fr: 'Messages au destinataire', en: 'Messages to the recipient' },
  'account.none': {
    fr: 'Aucun message envoyé au destinataire pour cette commande.',
    en: 'No message was sent to the recipient for this order.',
  },
  'account.testOutbox': {
    fr: 'Commande de test : ces messages sont allés dans la boîte d’envoi de développement, jamais au destinataire (ni SMTP ni SMS).',
    en: 'Test order: these messages went to the development outbox, never to the recipient (no SMTP, no SMS).',
  },
  'account.when': { fr: 'Date', en: 'When' },
  'account.step': { fr: 'Étape', en: 'Step' },
  'account.channel': { fr: 'Canal', en: 'Channel' },
  'account.status': { fr: 'État', en: 'Status' },
  'step.confirmed': { fr: 'Livraison confirmée', en: 'Delivery confirmed' },
  'step.out_for_delivery': { fr: 'En cours de livraison', en: 'Out for delivery' },
  'step.eta_changed': { fr: 'Horaire modifié', en: 'Time changed' },
  'step.delivered': { fr: 'Livré', en: 'Delivered' },
  'step.failed_attempt': { fr: 'Tentative échouée', en: 'Failed attempt' },
  'step.code': { fr: 'Code de vérification', en: 'Verification code' },
  'channel.email': { fr: 'E-mail', en: 'E-mail' },
  'channel.sms': { fr: 'SMS', en: 'SMS' },
  'status.sending': { fr: 'En cours d’envoi', en: 'Sending' },
  'status.sent': { fr: 'Envoyé', en: 'Sent' },
  'status.delivered': { fr: 'Remis', en: 'Delivered' },
  'status.failed': { fr: 'Échec', en: 'Failed' },
  'status.skipped': { fr: 'Non envoyé', en: 'Not sent' },
  'skip.off': { fr: 'étape désactivée', en: 'step turned off' },
  'skip.no_address': { fr: 'pas d’adresse', en: 'no address' },
  'skip.opted_out': { fr: 'destinataire désabonné', en: 'recipient unsubscribed' },
  'skip.shop_notifies': { fr: 'la boutique prévient le client', en: 'the shop tells its customer' },
  // Why a message is being retried or failed: the SMTP server's or SMS provider's own words.
  'detail.retrying': { fr: 'nouvel essai prévu : {reason}', en: 'will retry: {reason}' },
} satisfies Record<string, Words>;

export type RecipientKey = keyof typeof RECIPIENTS;

/** The recipients' `t` in one language. */
export const recipientWording = (locale: Locale) => wordingOf<RecipientKey>(RECIPIENTS, locale);
