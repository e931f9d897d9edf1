/**
 * The courier app's words, French and English side by side (a key without both is a type error).
 * The app shell hands the whole table to the page's scripts as data, both languages at once: the
 * courier's language comes from `/courier/api/v1/me` (or the switch), possibly offline, after the
 * shell was rendered and cached.
 */

import type { Locale } from './locales.ts';
import type { Words } from './words.ts';

const COURIER = {
  appName: { fr: 'Tournée coursier', en: 'Courier round' },
  loading: { fr: 'Chargement…', en: 'Loading…' },
  noScript: {
    fr: 'Cette application a besoin de JavaScript pour scanner et travailler hors ligne.',
    en: 'This app needs JavaScript to scan and to work offline.',
  },
  switchTo: { fr: 'English', en: 'Français' },
  signOut: { fr: 'Se déconnecter', en: 'Sign out' },
  offline: { fr: 'Hors ligne', en: 'Offline' },
  waiting: { fr: '{count} en attente d’envoi', en: '{count} waiting to be sent' },
  allSent: { fr: 'Tout est envoyé', en: 'Everything sent' },
  sendNow: { fr: 'Envoyer maintenant', en: 'Send now' },
  tabDay: { fr: 'Ma journée', en: 'My day' },
  tabScan: { fr: 'Scanner', en: 'Scan' },
  dayTitle: { fr: 'Tournées du {date}', en: 'Rounds of {date}' },
  noRounds: { fr: 'Aucune tournée pour vous aujourd’hui.', en: 'No round for you today.' },
  dayUnavailable: {
    fr: 'La journée n’a pas pu être chargée (hors ligne ?).',
    en: 'The day could not be loaded (offline?).',
  },
  savedDay: { fr: 'Journée enregistrée sur le téléphone', en: 'Day saved on this phone' },
  sortCodes: { fr: 'Secteurs', en: 'Sort codes' },
  pickups: { fr: 'Enlèvements', en: 'Pickups' },
  deliveries: { fr: 'Livraisons', en: 'Deliveries' },
  window: { fr: 'Créneau {start}–{end}', en: 'Window {start}–{end}' },
  parcels: { fr: '{count} colis', en: '{count} parcel(s)' },
  call: { fr: 'Appeler {phone}', en: 'Call {phone}' },
  navigate: { fr: 'Y aller', en: 'Navigate' },
  navigateMapApp: { fr: 'Appli de cartes', en: 'Map app' },
  eta: { fr: 'Arrivée estimée à {time}', en: 'Estimated arrival {time}' },
  nextStop: { fr: '{distance} jusqu’à l’arrêt suivant', en: '{distance} to the next stop' },
  sharePosition: {
    fr: 'Partager ma position pendant mes tournées (heures d’arrivée des destinataires)',
    en: 'Share my position during my rounds (the recipients’ arrival times)',
  },
  sharePositionHint: {
    fr: 'Au plus une fois par minute, seulement pendant une tournée en cours ; conservée 48 heures.',
    en: 'At most once a minute, only while a round is in progress, kept 48 hours.',
  },
  instructions: { fr: 'Consignes :', en: 'Instructions:' },
  safePlace: { fr: 'Si absent, laisser :', en: 'If out, leave it:' },
  'safePlace.neighbour': { fr: 'chez un voisin', en: 'with a neighbour' },
  'safePlace.caretaker': { fr: 'au gardien', en: 'with the caretaker' },
  'safePlace.behind_door': { fr: 'derrière la porte', en: 'behind the door' },
  'safePlace.letterbox_area': { fr: 'près des boîtes aux lettres', en: 'by the letterboxes' },
  'safePlace.other': { fr: 'ailleurs', en: 'somewhere else' },
  failedAttempts: { fr: '{count} tentative(s) échouée(s)', en: '{count} failed attempt(s)' },
  atTheDoor: { fr: 'À la porte', en: 'At the door' },
  modeLabel: { fr: 'Où scannez-vous ?', en: 'Where are you scanning?' },
  'mode.pickup': { fr: 'Enlèvement', en: 'Pickup' },
  'mode.hub': { fr: 'Dépôt', en: 'Hub' },
  'mode.loading': { fr: 'Chargement', en: 'Loading' },
  'mode.door': { fr: 'À la porte', en: 'At the door' },
  startCamera: { fr: 'Ouvrir la caméra', en: 'Open the camera' },
  stopCamera: { fr: 'Fermer la caméra', en: 'Close the camera' },
  cameraDenied: {
    fr: 'Caméra indisponible : autorisez-la, ou tapez la référence.',
    en: 'Camera unavailable: allow it, or type the reference.',
  },
  decoderFailed: {
    fr: 'Le lecteur de codes n’a pas pu démarrer : tapez la référence.',
    en: 'The barcode reader could not start: type the reference.',
  },
  codeLabel: { fr: 'Référence ou douchette', en: 'Reference or scanner' },
  codePlaceholder: { fr: 'DLV-…', en: 'DLV-…' },
  submitCode: { fr: 'Valider', en: 'Submit' },
  notALabel: {
    fr: '« {code} » n’est pas une étiquette de colis : rien n’a changé.',
    en: '“{code}” is not a parcel label: nothing changed.',
  },
  notOnRound: {
    fr: '{ref} n’est pas une livraison de votre tournée : rien n’a changé.',
    en: '{ref} is not a delivery of your round: nothing changed.',
  },
  queued: {
    fr: '{ref} : {mode} — enregistré sur le téléphone, envoi…',
    en: '{ref}: {mode} — saved on this phone, sending…',
  },
  doorNotYet: {
    fr: '{ref} ({status}) : pas encore en livraison — scannez-le d’abord au chargement.',
    en: '{ref} ({status}): not out for delivery yet — scan it at loading first.',
  },
  doorDone: {
    fr: '{ref} ({status}) : plus rien à faire à la porte.',
    en: '{ref} ({status}): nothing left to do at the door.',
  },
  changePassword: { fr: 'Changer mon mot de passe', en: 'Change my password' },
  applied: { fr: '{ref} : {status}', en: '{ref}: {status}' },
  refusedTitle: { fr: 'Refusés par le serveur', en: 'Refused by the server' },
  dismiss: { fr: 'Effacer', en: 'Dismiss' },
  recent: { fr: 'Derniers scans', en: 'Latest scans' },
  doorTitle: { fr: 'À la porte : {ref}', en: 'At the door: {ref}' },
  delivered: { fr: 'Livré', en: 'Delivered' },
  failed: { fr: 'Échec de livraison', en: 'Failed attempt' },
  takePhoto: { fr: 'Prendre la photo', en: 'Take the photo' },
  retakePhoto: { fr: 'Reprendre la photo', en: 'Retake the photo' },
  photo: { fr: 'Photo', en: 'Photo' },
  signature: { fr: 'Signature', en: 'Signature' },
  clearSignature: { fr: 'Effacer la signature', en: 'Clear the signature' },
  receivedBy: { fr: 'Remis à (nom)', en: 'Received by (name)' },
  position: { fr: 'Position :', en: 'Position:' },
  positionNone: { fr: 'non disponible', en: 'not available' },
  confirmDelivered: { fr: 'Valider la livraison', en: 'Confirm the delivery' },
  confirmFailed: { fr: 'Valider l’échec', en: 'Confirm the failed attempt' },
  reasonLabel: { fr: 'Motif', en: 'Reason' },
  'reason.absent': { fr: 'Absent', en: 'Absent' },
  'reason.refused': { fr: 'Refusé', en: 'Refused' },
  'reason.address_not_found': { fr: 'Adresse introuvable', en: 'Address not found' },
  'reason.no_access': { fr: 'Accès impossible', en: 'No access' },
  'reason.damaged': { fr: 'Colis endommagé', en: 'Damaged parcel' },
  proofNeeded: {
    fr: 'Une photo, une signature ou le nom de la personne est nécessaire.',
    en: 'A photo, a signature or the name of the person is needed.',
  },
  cancel: { fr: 'Annuler', en: 'Cancel' },
  sessionEnded: {
    fr: 'Session terminée : reconnectez-vous. Vos scans restent sur le téléphone.',
    en: 'Session ended: sign in again. Your scans stay on this phone.',
  },
  'status.pending': { fr: 'À enlever', en: 'To pick up' },
  'status.awaiting_address': { fr: 'Adresse en attente', en: 'Awaiting address' },
  'status.picked_up': { fr: 'Enlevé', en: 'Picked up' },
  'status.in_transit': { fr: 'Au dépôt', en: 'At the hub' },
  'status.out_for_delivery': { fr: 'En livraison', en: 'Out for delivery' },
  'status.delivered': { fr: 'Livré', en: 'Delivered' },
  'status.failed_attempt': { fr: 'Tentative échouée', en: 'Failed attempt' },
  'status.returned': { fr: 'Retourné', en: 'Returned' },
  'status.cancelled': { fr: 'Annulé', en: 'Cancelled' },
  'status.planned': { fr: 'Prévu', en: 'Planned' },
  'status.collected': { fr: 'Enlevé', en: 'Collected' },
  'status.partially_collected': { fr: 'Enlevé en partie', en: 'Partly collected' },
  'status.missed': { fr: 'Manqué', en: 'Missed' },
  'problem.unknown_code': { fr: 'Code inconnu', en: 'Unknown code' },
  'problem.wrong_round': {
    fr: 'Colis d’une autre tournée',
    en: 'Parcel of another round',
  },
  'problem.already_delivered': { fr: 'Déjà livré', en: 'Already delivered' },
  'problem.order_cancelled': { fr: 'Commande annulée', en: 'Order cancelled' },
  'problem.test_order': { fr: 'Commande de test : ne pas livrer', en: 'Test order: do not deliver' },
  'problem.invalid_transition': {
    fr: 'Ce scan ne convient pas à l’état du colis',
    en: 'This scan does not fit the parcel’s status',
  },
  'problem.proof_required': {
    fr: 'Preuve de livraison manquante',
    en: 'Proof of delivery missing',
  },
  'problem.other': { fr: 'Refusé', en: 'Refused' },
  installHint: {
    fr: 'Ajoutez l’application à l’écran d’accueil depuis le menu du navigateur.',
    en: 'Add the app to the home screen from the browser’s menu.',
  },
} satisfies Record<string, Words>;

export type CourierKey = keyof typeof COURIER;

/** The table in one language, as the app's scripts read it (`{name}` placeholders left in). */
export function courierWords(locale: Locale): Record<CourierKey, string> {
  const out = {} as Record<CourierKey, string>;
  for (const key of Object.keys(COURIER) as CourierKey[]) out[key] = COURIER[key][locale];
  return out;
}
