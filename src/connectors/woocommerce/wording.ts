import type { ConnectorWording, Words } from '../../i18n/words.ts';

/** WooCommerce's words in the account area (its card and form on the Shops page), French and English side by side. */
export const WOOCOMMERCE_WORDING = {
  account: {
    'shops.platform.woocommerce': {
      en: 'WooCommerce',
      fr: 'WooCommerce',
    },
    'shops.wooConnect': {
      en: 'Connect a WooCommerce store',
      fr: 'Connecter une boutique WooCommerce',
    },
    'shops.wooUrl': {
      en: 'Your store’s address',
      fr: 'Adresse de votre boutique',
    },
    'shops.wooHint': {
      en: 'Its home page, such as https://boutique.example.fr. Leave the keys empty to approve the connection in your WordPress admin, or paste a Read/Write key made in WooCommerce › Settings › Advanced › REST API.',
      fr: 'Sa page d’accueil, par exemple https://boutique.example.fr. Laissez les clés vides pour approuver la connexion dans votre administration WordPress, ou collez une clé Lecture/Écriture créée dans WooCommerce › Réglages › Avancé › API REST.',
    },
    'shops.wooKey': {
      en: 'Consumer key (optional)',
      fr: 'Clé client (facultative)',
    },
    'shops.wooSecret': {
      en: 'Consumer secret (optional)',
      fr: 'Secret client (facultatif)',
    },
    'shops.wooContinueText': {
      en: 'Your store will ask you (signed in to WordPress as a shop manager) to approve a Read/Write key for us, then bring you back here.',
      fr: 'Votre boutique vous demandera (connecté à WordPress en gérant de boutique) d’approuver une clé Lecture/Écriture pour nous, puis vous ramènera ici.',
    },
    'shops.wooContinue': {
      en: 'Continue to my store',
      fr: 'Continuer vers ma boutique',
    },
    'shops.wooNotEnabled': {
      en: 'WooCommerce stores cannot be connected yet: the operator has not set CONNECTOR_SECRET_KEY.',
      fr: 'Les boutiques WooCommerce ne peuvent pas encore être connectées : l’opérateur n’a pas défini CONNECTOR_SECRET_KEY.',
    },
  } satisfies Record<string, Words>,
} satisfies ConnectorWording;
