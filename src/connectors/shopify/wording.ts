import type { ConnectorWording, Words } from '../../i18n/words.ts';

/**
 * Shopify's words in the account area, French and English side by side: its card and form on the
 * Shops page (the `shops.*` keys other platforms replace with their own), and the page a merchant's
 * browser lands on when Shopify's install callback fails.
 */
export const SHOPIFY_WORDING = {
  account: {
    'shops.connect': {
      en: 'Connect a Shopify store',
      fr: 'Connecter une boutique Shopify',
    },
    'shops.shopHint': {
      en: 'Its name (acme) or its myshopify.com address (acme.myshopify.com); Shopify then asks you to approve the app.',
      fr: 'Son nom (acme) ou son adresse myshopify.com (acme.myshopify.com) ; Shopify vous demande ensuite d’approuver l’application.',
    },
    'shops.connectSubmit': {
      en: 'Continue to Shopify',
      fr: 'Continuer vers Shopify',
    },
    'shops.continueText': {
      en: 'Shopify will show what the app may do (read the orders, fulfil them, offer our rates at checkout) and ask you to install it; you then come back here.',
      fr: 'Shopify affiche ce que l’application pourra faire (lire les commandes, les expédier, proposer nos tarifs au paiement) et vous demande de l’installer ; vous revenez ensuite ici.',
    },
    'shops.notEnabled': {
      en: 'Shopify stores cannot be connected yet: the operator has not enabled the Shopify app.',
      fr: 'Les boutiques Shopify ne peuvent pas encore être connectées : l’opérateur n’a pas activé l’application Shopify.',
    },
    'shops.platform.shopify': {
      en: 'Shopify',
      fr: 'Shopify',
    },
    'shops.notify.yes': {
      en: 'Yes: Shopify sends the customer the tracking link once the parcel is picked up',
      fr: 'Oui : Shopify envoie le lien de suivi au client une fois le colis enlevé',
    },
    'shops.remote.removed': {
      en: 'Our webhooks and our rates were removed from the shop. You can now uninstall the app in the Shopify admin (Settings → Apps).',
      fr: 'Nos webhooks et nos tarifs ont été retirés de la boutique. Vous pouvez maintenant désinstaller l’application dans l’administration Shopify (Paramètres → Applications).',
    },
    'shops.remote.failed': {
      en: 'Shopify could not be reached (or refused our access), so our webhooks and rates may still be registered on the shop: uninstall the app in the Shopify admin (Settings → Apps) to remove them.',
      fr: 'Shopify était injoignable (ou a refusé notre accès) : nos webhooks et nos tarifs peuvent rester enregistrés sur la boutique. Désinstallez l’application dans l’administration Shopify (Paramètres → Applications) pour les retirer.',
    },
    'shops.remote.none': {
      en: 'You can uninstall the app in the Shopify admin (Settings → Apps).',
      fr: 'Vous pouvez désinstaller l’application dans l’administration Shopify (Paramètres → Applications).',
    },
    'shops.callback.unsigned': {
      en: 'This page was not opened by Shopify (its signature does not match), so nothing was connected. Start again from your Shops page.',
      fr: 'Cette page n’a pas été ouverte par Shopify (sa signature ne correspond pas) : rien n’a été connecté. Recommencez depuis votre page Boutiques.',
    },
    'shops.callback.incomplete': {
      en: 'The address Shopify sent you back with is incomplete. Start again from your Shops page.',
      fr: 'L’adresse de retour envoyée par Shopify est incomplète. Recommencez depuis votre page Boutiques.',
    },
    'shops.callback.token_refused': {
      en: 'Shopify refused the access it had just granted. Start again from your Shops page.',
      fr: 'Shopify a refusé l’accès qu’il venait d’accorder. Recommencez depuis votre page Boutiques.',
    },
    'shops.callback.shopify_unreachable': {
      en: 'Shopify could not be reached, so nothing was connected. Try again in a few minutes.',
      fr: 'Shopify n’a pas pu être joint : rien n’a été connecté. Réessayez dans quelques minutes.',
    },
    'shops.callback.shopify_refused': {
      en: 'Shopify refused to register our webhooks on this store, so nothing was connected. Try again later; if it keeps failing, contact us.',
      fr: 'Shopify a refusé d’enregistrer nos webhooks sur cette boutique : rien n’a été connecté. Réessayez plus tard ; si cela persiste, contactez-nous.',
    },
    'shops.problemText.update_not_sent': {
      en: 'Shopify did not take the update of {tracking_ref} ({status}), despite our retries.',
      fr: 'Shopify n’a pas pris la mise à jour de {tracking_ref} ({status}), malgré nos nouvelles tentatives.',
    },
    'shops.problemText.no_carrier_service': {
      en: 'Our rates cannot show at this store’s checkout: carrier-calculated shipping needs Shopify’s Advanced plan, or the Shopify plan billed yearly or with the add-on. Orders and tracking work without it.',
      fr: 'Nos tarifs ne peuvent pas s’afficher au paiement de cette boutique : les frais d’expédition calculés par un transporteur demandent le forfait Advanced de Shopify, ou le forfait Shopify payé à l’année ou avec l’option. Les commandes et le suivi fonctionnent sans.',
    },
    'shops.problemText.tracking_link_broken': {
      en: 'Delivery {tracking_ref} was created, but its tracking is not sent to Shopify: the store refused our access. Connect it again.',
      fr: 'La livraison {tracking_ref} a été créée, mais son suivi n’est pas envoyé à Shopify : la boutique a refusé notre accès. Connectez-la à nouveau.',
    },
  } satisfies Record<string, Words>,
  fieldMessagesFr: {
    'must be your store’s name (acme) or its myshopify.com address (acme.myshopify.com)':
      'doit être le nom de votre boutique (acme) ou son adresse myshopify.com (acme.myshopify.com)',
  },
} satisfies ConnectorWording;
