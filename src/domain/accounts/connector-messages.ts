/**
 * The shop connectors' words in the account area (spread into messages.ts): the page a merchant's
 * browser lands on when linking a shop fails, and the sync problems, worded from their kind and
 * `details.code` (`shops.problemText.<code or kind>`, values in braces) rather than the English
 * sentence the CLI prints.
 */
export const CONNECTOR_EN = {
  'shops.callback.title': 'Your shop could not be connected',
  'shops.callback.unsigned':
    'This page was not opened by Shopify (its signature does not match), so nothing was connected. Start again from your Shops page.',
  'shops.callback.expired':
    'This connection request has expired or was already used. Start again from your Shops page.',
  'shops.callback.other_browser':
    'This connection was started in another browser (or its cookies were cleared). Start again from your Shops page, in this browser.',
  'shops.callback.not_allowed':
    'The person who started this connection may no longer connect shops for this company (removed, or their role changed), so nothing was connected.',
  'shops.callback.incomplete':
    'The address Shopify sent you back with is incomplete. Start again from your Shops page.',
  'shops.callback.already_linked':
    'This store is already connected. Disconnect it first on the Shops page of the account it is connected to.',
  'shops.callback.token_refused':
    'Shopify refused the access it had just granted. Start again from your Shops page.',
  'shops.callback.shopify_unreachable':
    'Shopify could not be reached, so nothing was connected. Try again in a few minutes.',
  'shops.callback.shopify_refused':
    'Shopify refused to register our webhooks on this store, so nothing was connected. Try again later; if it keeps failing, contact us.',
  'shops.callback.failed': 'An unexpected error occurred, so nothing was connected. Try again in a moment.',

  'shops.problemText.out_of_zone': 'The delivery address is outside the area we deliver.',
  'shops.problemText.invalid_address': 'The shipping address could not be understood.',
  'shops.problemText.unpriceable': 'Your price grid has no price for this order’s service, size or weight.',
  'shops.problemText.invalid_order': 'The order cannot become a delivery order.',
  'shops.problemText.owner_unconfirmed':
    'This order was not created: no owner of your company has confirmed their e-mail address. Confirm it (the link we sent), then ask us to import the order again.',
  'shops.problemText.not_cancellable':
    'The shop cancelled the order, but its delivery can no longer be cancelled.',
  'shops.problemText.sync_failed': 'An update could not be sent to the shop.',
  'shops.problemText.data_request': 'A customer asked for their data: answer within 30 days.',
  'shops.problemText.outside_france': 'The shipping address is outside France ({country}).',
  'shops.problemText.no_shipping_address': 'The order has no shipping address.',
  'shops.problemText.empty_address': 'The shipping address is empty.',
  'shops.problemText.no_email': 'The order has no usable customer e-mail.',
  'shops.problemText.cancelled_too_late':
    'The shop cancelled the order, but delivery {tracking_ref} is already under way and can no longer be cancelled.',
  'shops.problemText.customer_data_request':
    'Customer {customer} asked for their data (orders: {orders}). Answer within 30 days.',
  'shops.problemText.update_not_sent':
    'Shopify did not take the update of {tracking_ref} ({status}), despite our retries.',
  'shops.problemText.no_carrier_service':
    'Our rates cannot show at this store’s checkout: carrier-calculated shipping needs Shopify’s Advanced plan, or the Shopify plan billed yearly or with the add-on. Orders and tracking work without it.',
  'shops.problemText.tracking_link_broken':
    'Delivery {tracking_ref} was created, but its tracking is not sent to Shopify: the store refused our access. Connect it again.',
} as const;

export const CONNECTOR_FR: Record<keyof typeof CONNECTOR_EN, string> = {
  'shops.callback.title': 'Votre boutique n’a pas pu être connectée',
  'shops.callback.unsigned':
    'Cette page n’a pas été ouverte par Shopify (sa signature ne correspond pas) : rien n’a été connecté. Recommencez depuis votre page Boutiques.',
  'shops.callback.expired':
    'Cette demande de connexion a expiré ou a déjà servi. Recommencez depuis votre page Boutiques.',
  'shops.callback.other_browser':
    'Cette connexion a été commencée dans un autre navigateur (ou ses cookies ont été effacés). Recommencez depuis votre page Boutiques, dans ce navigateur.',
  'shops.callback.not_allowed':
    'La personne qui a commencé cette connexion ne peut plus connecter de boutique pour cette société (retirée, ou son rôle a changé) : rien n’a été connecté.',
  'shops.callback.incomplete':
    'L’adresse de retour envoyée par Shopify est incomplète. Recommencez depuis votre page Boutiques.',
  'shops.callback.already_linked':
    'Cette boutique est déjà connectée. Déconnectez-la d’abord depuis la page Boutiques du compte auquel elle est reliée.',
  'shops.callback.token_refused':
    'Shopify a refusé l’accès qu’il venait d’accorder. Recommencez depuis votre page Boutiques.',
  'shops.callback.shopify_unreachable':
    'Shopify n’a pas pu être joint : rien n’a été connecté. Réessayez dans quelques minutes.',
  'shops.callback.shopify_refused':
    'Shopify a refusé d’enregistrer nos webhooks sur cette boutique : rien n’a été connecté. Réessayez plus tard ; si cela persiste, contactez-nous.',
  'shops.callback.failed':
    'Une erreur inattendue s’est produite : rien n’a été connecté. Réessayez dans un instant.',

  'shops.problemText.out_of_zone': 'L’adresse de livraison est hors de la zone que nous livrons.',
  'shops.problemText.invalid_address': 'L’adresse de livraison n’a pas pu être comprise.',
  'shops.problemText.unpriceable':
    'Votre grille tarifaire n’a pas de prix pour le service, le format ou le poids de cette commande.',
  'shops.problemText.invalid_order': 'La commande ne peut pas devenir une commande de livraison.',
  'shops.problemText.owner_unconfirmed':
    'Cette commande n’a pas été créée : aucun propriétaire de votre société n’a confirmé son adresse e-mail. Confirmez-la (lien envoyé), puis demandez-nous d’importer la commande à nouveau.',
  'shops.problemText.not_cancellable':
    'La boutique a annulé la commande, mais sa livraison ne peut plus être annulée.',
  'shops.problemText.sync_failed': 'Une mise à jour n’a pas pu être envoyée à la boutique.',
  'shops.problemText.data_request': 'Un client demande ses données : répondez sous 30 jours.',
  'shops.problemText.outside_france': 'L’adresse de livraison est hors de France ({country}).',
  'shops.problemText.no_shipping_address': 'La commande n’a pas d’adresse de livraison.',
  'shops.problemText.empty_address': 'L’adresse de livraison est vide.',
  'shops.problemText.no_email': 'La commande n’a pas d’adresse e-mail client utilisable.',
  'shops.problemText.cancelled_too_late':
    'La boutique a annulé la commande, mais la livraison {tracking_ref} est déjà en cours et ne peut plus être annulée.',
  'shops.problemText.customer_data_request':
    'Le client {customer} demande ses données (commandes : {orders}). Répondez sous 30 jours.',
  'shops.problemText.update_not_sent':
    'Shopify n’a pas pris la mise à jour de {tracking_ref} ({status}), malgré nos nouvelles tentatives.',
  'shops.problemText.no_carrier_service':
    'Nos tarifs ne peuvent pas s’afficher au paiement de cette boutique : les frais d’expédition calculés par un transporteur demandent le forfait Advanced de Shopify, ou le forfait Shopify payé à l’année ou avec l’option. Les commandes et le suivi fonctionnent sans.',
  'shops.problemText.tracking_link_broken':
    'La livraison {tracking_ref} a été créée, mais son suivi n’est pas envoyé à Shopify : la boutique a refusé notre accès. Connectez-la à nouveau.',
};
