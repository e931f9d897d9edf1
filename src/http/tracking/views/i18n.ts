/** The tracking page's languages: French by default (recipients are in Île-de-France), English. */
const LANGS = ['fr', 'en'] as const;
export type Lang = (typeof LANGS)[number];

/**
 * `?lang=` when it names a language we have; else the preferred one of Accept-Language (by q,
 * then order) among ours; else French.
 */
export function chooseLang(query: unknown, acceptLanguage: string | undefined): Lang {
  if (query === 'fr' || query === 'en') return query;
  let best: { lang: Lang; q: number } | null = null;
  for (const part of (acceptLanguage ?? '').slice(0, 500).split(',')) {
    const [tag = '', ...params] = part.trim().toLowerCase().split(';');
    const primary = tag.split('-')[0];
    if (primary !== 'fr' && primary !== 'en') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang: primary, q };
  }
  return best?.lang ?? 'fr';
}

export const LOCALES: Record<Lang, string> = { fr: 'fr-FR', en: 'en-GB' };

export const TEXT = {
  fr: {
    pageTitle: (brand: string) => `Suivi de votre colis ${brand}`,
    deliveredBy: 'Livraison Île-de-France',
    trackingNumber: 'N° de suivi',
    promised: 'Livraison prévue',
    deliveredOn: 'Livré le',
    destination: 'Destination',
    addressPending: 'Adresse de livraison en attente',
    history: 'Suivi',
    switchTo: 'English',
    switchLabel: 'View this page in English',
    notFoundTitle: 'Lien de suivi introuvable',
    notFoundBody:
      'Ce lien de suivi n’existe pas ou n’est plus valide. Vérifiez qu’il a été copié en entier depuis le message reçu.',
    tooManyTitle: 'Trop de requêtes',
    tooManyBody: (s: number) => `Merci de patienter ${s} seconde${s > 1 ? 's' : ''} avant de réessayer.`,
    errorTitle: 'Service momentanément indisponible',
    errorBody: 'Le suivi ne peut pas être affiché pour le moment. Réessayez dans quelques instants.',
    headline: {
      awaiting_address: 'Commande enregistrée',
      pending: 'Commande enregistrée',
      picked_up: 'Colis pris en charge',
      in_transit: 'Colis en transit',
      out_for_delivery: 'En cours de livraison',
      failed_attempt: 'Tentative de livraison échouée',
      delivered: 'Colis livré',
      returned: 'Retourné à l’expéditeur',
      cancelled: 'Livraison annulée',
    },
    detail: {
      awaiting_address: 'Le colis sera pris en charge dès que l’adresse de livraison sera confirmée.',
      pending: 'Le colis attend d’être pris en charge par notre livreur.',
      picked_up: 'Notre livreur a récupéré le colis.',
      in_transit: 'Le colis est en route vers votre zone de livraison.',
      out_for_delivery: 'Le livreur est en route : le colis arrive aujourd’hui.',
      failed_attempt: 'Le livreur n’a pas pu remettre le colis. Une nouvelle tentative est prévue.',
      delivered: 'Le colis a été remis à son destinataire.',
      returned: 'Le colis a été renvoyé à l’expéditeur.',
      cancelled: 'Cette livraison a été annulée par l’expéditeur.',
    },
    steps: {
      created: 'Commande enregistrée',
      picked_up: 'Pris en charge',
      in_transit: 'En transit',
      out_for_delivery: 'En cours de livraison',
      delivered: 'Livré',
      failed_attempt: 'Tentative de livraison échouée',
      returned: 'Retourné à l’expéditeur',
      cancelled: 'Annulé',
    },
  },
  en: {
    pageTitle: (brand: string) => `Track your ${brand} parcel`,
    deliveredBy: 'Île-de-France delivery',
    trackingNumber: 'Tracking number',
    promised: 'Expected delivery',
    deliveredOn: 'Delivered on',
    destination: 'Destination',
    addressPending: 'Delivery address pending',
    history: 'Tracking',
    switchTo: 'Français',
    switchLabel: 'Voir cette page en français',
    notFoundTitle: 'Tracking link not found',
    notFoundBody:
      'This tracking link does not exist or is no longer valid. Check that it was copied in full from the message you received.',
    tooManyTitle: 'Too many requests',
    tooManyBody: (s: number) => `Please wait ${s} second${s > 1 ? 's' : ''} before trying again.`,
    errorTitle: 'Temporarily unavailable',
    errorBody: 'Tracking cannot be shown right now. Please try again in a moment.',
    headline: {
      awaiting_address: 'Order received',
      pending: 'Order received',
      picked_up: 'Parcel picked up',
      in_transit: 'Parcel in transit',
      out_for_delivery: 'Out for delivery',
      failed_attempt: 'Delivery attempt failed',
      delivered: 'Delivered',
      returned: 'Returned to sender',
      cancelled: 'Delivery cancelled',
    },
    detail: {
      awaiting_address: 'The parcel will be picked up once the delivery address is confirmed.',
      pending: 'The parcel is waiting to be picked up by our courier.',
      picked_up: 'Our courier has collected the parcel.',
      in_transit: 'The parcel is on its way to your delivery area.',
      out_for_delivery: 'The courier is on the way: your parcel arrives today.',
      failed_attempt: 'The courier could not hand over the parcel. Another attempt is planned.',
      delivered: 'The parcel has been handed over to its recipient.',
      returned: 'The parcel has been sent back to the sender.',
      cancelled: 'This delivery was cancelled by the sender.',
    },
    steps: {
      created: 'Order received',
      picked_up: 'Picked up',
      in_transit: 'In transit',
      out_for_delivery: 'Out for delivery',
      delivered: 'Delivered',
      failed_attempt: 'Delivery attempt failed',
      returned: 'Returned to sender',
      cancelled: 'Cancelled',
    },
  },
} as const;
