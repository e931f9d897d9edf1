/**
 * The account area's words (its pages and its e-mails), French and English side by side: a key
 * without both is a type error. `translate` falls back to the key itself so a slip in a key built
 * at run time shows up on the page rather than as an empty string. Each shop platform brings its
 * own words (src/connectors/<platform>/wording.ts): the account area adds them to these
 * (src/http/account/words.ts), so this module knows no connector.
 */

import { isLocale, type Locale } from './locales.ts';
import { PLACES_WORDS } from './places.ts';
import { fill, type Words } from './words.ts';

const ACCOUNT = {
  'app.name': {
    en: 'Delivery Orders — account',
    fr: 'Delivery Orders — espace client',
  },
  'nav.home': {
    en: 'Home',
    fr: 'Accueil',
  },
  'nav.keys': {
    en: 'API keys',
    fr: 'Clés d’API',
  },
  'nav.signOut': {
    en: 'Sign out',
    fr: 'Se déconnecter',
  },
  'nav.lang': {
    en: 'Français',
    fr: 'English',
  },
  'signIn.title': {
    en: 'Sign in',
    fr: 'Connexion',
  },
  'signIn.submit': {
    en: 'Sign in',
    fr: 'Se connecter',
  },
  'signIn.forgot': {
    en: 'Forgot your password?',
    fr: 'Mot de passe oublié ?',
  },
  'signIn.noAccount': {
    en: 'No account yet? Create one',
    fr: 'Pas encore de compte ? Créez-en un',
  },
  'signIn.disabled': {
    en: 'This account has been disabled.',
    fr: 'Ce compte a été désactivé.',
  },
  'signIn.refused': {
    en: 'The e-mail or the password is wrong.',
    fr: 'L’e-mail ou le mot de passe est incorrect.',
  },
  'signUp.title': {
    en: 'Create your account',
    fr: 'Créer votre compte',
  },
  'signUp.company': {
    en: 'Company name',
    fr: 'Nom de la société',
  },
  'signUp.submit': {
    en: 'Create the account',
    fr: 'Créer le compte',
  },
  'signUp.closed': {
    en: 'Accounts are opened by invitation only. Ask your contact at the delivery company.',
    fr: 'Les comptes sont ouverts sur invitation. Demandez à votre contact chez le livreur.',
  },
  'signUp.sent': {
    en: 'Almost there: we sent a link to {email}. Open it to confirm your address, then sign in.',
    fr: 'Presque fini : un lien a été envoyé à {email}. Ouvrez-le pour confirmer votre adresse, puis connectez-vous.',
  },
  'field.email': {
    en: 'E-mail',
    fr: 'E-mail',
  },
  'field.password': {
    en: 'Password',
    fr: 'Mot de passe',
  },
  'field.newPassword': {
    en: 'New password (12 to 128 characters)',
    fr: 'Nouveau mot de passe (12 à 128 caractères)',
  },
  'verify.title': {
    en: 'E-mail address',
    fr: 'Adresse e-mail',
  },
  'verify.ok': {
    en: 'Your e-mail address is confirmed. You can sign in.',
    fr: 'Votre adresse e-mail est confirmée. Vous pouvez vous connecter.',
  },
  'verify.bad': {
    en: 'This link has expired or has already been used.',
    fr: 'Ce lien a expiré ou a déjà servi.',
  },
  'verify.confirm': {
    en: 'Confirm that this e-mail address is yours to finish setting up your account.',
    fr: 'Confirmez que cette adresse e-mail est la vôtre pour terminer la création de votre compte.',
  },
  'verify.submit': {
    en: 'Confirm my e-mail address',
    fr: 'Confirmer mon adresse e-mail',
  },
  'verify.notice': {
    en: 'Confirm your e-mail address (see the link we sent) before creating API keys.',
    fr: 'Confirmez votre adresse e-mail (lien envoyé) avant de créer des clés d’API.',
  },
  'verify.resend': {
    en: 'Send the link again',
    fr: 'Renvoyer le lien',
  },
  'verify.resent': {
    en: 'A new link is on its way.',
    fr: 'Un nouveau lien est en route.',
  },
  'forgot.title': {
    en: 'Reset your password',
    fr: 'Réinitialiser le mot de passe',
  },
  'forgot.submit': {
    en: 'Send me a link',
    fr: 'M’envoyer un lien',
  },
  'forgot.sent': {
    en: 'If an account uses this address, a link valid for one hour is on its way.',
    fr: 'Si un compte utilise cette adresse, un lien valable une heure est en route.',
  },
  'reset.title': {
    en: 'Choose a new password',
    fr: 'Choisir un nouveau mot de passe',
  },
  'reset.submit': {
    en: 'Save the password',
    fr: 'Enregistrer le mot de passe',
  },
  'reset.done': {
    en: 'Your password is changed and every session was ended. Sign in again.',
    fr: 'Mot de passe changé, toutes les sessions ont été fermées. Reconnectez-vous.',
  },
  'home.title': {
    en: 'Your account',
    fr: 'Votre compte',
  },
  'home.brand': {
    en: 'Company',
    fr: 'Société',
  },
  'home.role': {
    en: 'Your role',
    fr: 'Votre rôle',
  },
  'home.dev': {
    en: "Developers' corner",
    fr: 'Coin des développeurs',
  },
  'home.baseUrl': {
    en: 'API base URL',
    fr: 'URL de base de l’API',
  },
  'home.docs': {
    en: 'API reference',
    fr: 'Référence de l’API',
  },
  'home.try': {
    en: 'Try it with one of your keys:',
    fr: 'Essayez avec l’une de vos clés :',
  },
  'role.owner': {
    en: 'Owner',
    fr: 'Propriétaire',
  },
  'role.developer': {
    en: 'Developer',
    fr: 'Développeur',
  },
  'role.finance': {
    en: 'Finance',
    fr: 'Finance',
  },
  'keys.title': {
    en: 'API keys',
    fr: 'Clés d’API',
  },
  'keys.none': {
    en: 'No key yet.',
    fr: 'Aucune clé pour l’instant.',
  },
  'keys.name': {
    en: 'Name',
    fr: 'Nom',
  },
  'keys.prefix': {
    en: 'Key',
    fr: 'Clé',
  },
  'keys.test': {
    en: 'Test key (dlv_test_…): its orders are test data, never collected, delivered nor billed',
    fr: 'Clé de test (dlv_test_…) : ses commandes sont des données de test, jamais enlevées, livrées ni facturées',
  },
  'keys.testBadge': { en: 'test', fr: 'test' },
  'testData.banner': {
    en: 'You are viewing test data: orders, keys and webhooks of test mode. Nothing here is collected, delivered or billed.',
    fr: 'Vous consultez les données de test : commandes, clés et webhooks du mode test. Rien ici n’est enlevé, livré ni facturé.',
  },
  'testData.switch': { en: 'Data shown', fr: 'Données affichées' },
  'testData.live': { en: 'Live data', fr: 'Données réelles' },
  'testData.test': { en: 'Test data', fr: 'Données de test' },
  'testData.delete': { en: 'Delete all test data', fr: 'Supprimer toutes les données de test' },
  'testData.deleteTitle': { en: 'Delete all test data?', fr: 'Supprimer toutes les données de test ?' },
  'testData.deleteWarning': {
    en: 'All test orders (with their history, proofs and notifications), test webhook endpoints and their deliveries will be deleted for good. Your live data and your test keys are kept.',
    fr: 'Toutes les commandes de test (avec leur historique, preuves et notifications), les webhooks de test et leurs envois seront définitivement supprimés. Vos données réelles et vos clés de test sont conservées.',
  },
  'testData.deleteConfirm': {
    en: 'Yes, delete all test data',
    fr: 'Oui, supprimer toutes les données de test',
  },
  'testData.keep': { en: 'Keep my test data', fr: 'Garder mes données de test' },
  'testData.deleted': {
    en: 'Test data deleted: {orders} orders, {endpoints} webhook endpoints, {deliveries} webhook deliveries.',
    fr: 'Données de test supprimées : {orders} commandes, {endpoints} webhooks, {deliveries} envois de webhooks.',
  },
  'testData.readOnly': {
    en: 'Your role cannot delete test data: ask an owner or a developer.',
    fr: 'Votre rôle ne permet pas de supprimer les données de test : demandez à un propriétaire ou un développeur.',
  },
  'keys.scopes': {
    en: 'Scopes',
    fr: 'Droits',
  },
  'keys.createdBy': {
    en: 'Created by',
    fr: 'Créée par',
  },
  'keys.createdAt': {
    en: 'Created',
    fr: 'Créée le',
  },
  'keys.lastUsed': {
    en: 'Last used',
    fr: 'Dernier usage',
  },
  'keys.never': {
    en: 'never',
    fr: 'jamais',
  },
  'keys.revoked': {
    en: 'revoked',
    fr: 'révoquée',
  },
  'keys.revoke': {
    en: 'Revoke',
    fr: 'Révoquer',
  },
  'keys.new': {
    en: 'New key',
    fr: 'Nouvelle clé',
  },
  'keys.create': {
    en: 'Create the key',
    fr: 'Créer la clé',
  },
  'keys.stepUp': {
    en: 'Your password (asked again every 10 minutes for key changes)',
    fr: 'Votre mot de passe (redemandé toutes les 10 minutes pour les clés)',
  },
  'keys.created': {
    en: 'Your new key',
    fr: 'Votre nouvelle clé',
  },
  'keys.createdWarning': {
    en: 'Copy it now: it is shown only once. We keep only a fingerprint of it.',
    fr: 'Copiez-la maintenant : elle n’est affichée qu’une fois. Nous n’en gardons qu’une empreinte.',
  },
  'keys.back': {
    en: 'Back to the keys',
    fr: 'Retour aux clés',
  },
  'keys.alreadyShown': {
    en: 'This key has already been shown: we keep only a fingerprint of it. If you did not copy it, revoke it and create another one.',
    fr: 'Cette clé a déjà été affichée : nous n’en gardons qu’une empreinte. Si vous ne l’avez pas copiée, révoquez-la et créez-en une autre.',
  },
  'stepUp.limited': {
    en: 'Too many wrong passwords: for your safety you have been signed out. Wait a few minutes, then sign in again.',
    fr: 'Trop de mots de passe erronés : par sécurité, vous avez été déconnecté. Patientez quelques minutes puis reconnectez-vous.',
  },
  'keys.revokeTitle': {
    en: 'Revoke this key?',
    fr: 'Révoquer cette clé ?',
  },
  'keys.revokeWarning': {
    en: 'Requests using it will be refused within 5 seconds. This cannot be undone.',
    fr: 'Les requêtes qui l’utilisent seront refusées sous 5 secondes. C’est définitif.',
  },
  'keys.revokeConfirm': {
    en: 'Yes, revoke it',
    fr: 'Oui, la révoquer',
  },
  'keys.cancel': {
    en: 'Cancel',
    fr: 'Annuler',
  },
  'keys.audit': {
    en: 'Key history',
    fr: 'Historique des clés',
  },
  'keys.action.created': {
    en: 'created',
    fr: 'créée',
  },
  'keys.action.revoked': {
    en: 'revoked',
    fr: 'révoquée',
  },
  'scope.orders:read': {
    en: 'read orders and track them',
    fr: 'lire et suivre les commandes',
  },
  'scope.orders:write': {
    en: 'create, change and cancel orders',
    fr: 'créer, modifier et annuler des commandes',
  },
  'scope.invoices:read': {
    en: 'read invoices and credit notes',
    fr: 'lire les factures et avoirs',
  },
  'scope.webhooks:write': {
    en: 'manage webhook subscriptions (automation tools); once webhooks are enabled for your brand',
    fr: 'gérer les abonnements webhook (outils d’automatisation) ; une fois les webhooks ouverts à votre marque',
  },
  'error.title': {
    en: 'Something went wrong',
    fr: 'Un problème est survenu',
  },
  'error.403': {
    en: 'You cannot open this page with your role.',
    fr: 'Votre rôle ne donne pas accès à cette page.',
  },
  'error.404': {
    en: 'This page does not exist.',
    fr: 'Cette page n’existe pas.',
  },
  'error.csrf': {
    en: 'The form expired. Go back, reload the page and try again.',
    fr: 'Le formulaire a expiré. Revenez en arrière, rechargez la page et réessayez.',
  },
  'error.429': {
    en: 'Too many attempts: wait a few minutes and try again.',
    fr: 'Trop de tentatives : patientez quelques minutes puis réessayez.',
  },
  'error.500': {
    en: 'An unexpected error occurred. Try again in a moment.',
    fr: 'Une erreur inattendue est survenue. Réessayez dans un instant.',
  },
  'error.controlCharacters': {
    en: 'A field contains a character that cannot be used (a control character such as NUL). Go back, remove it and try again.',
    fr: 'Un champ contient un caractère inutilisable (un caractère de contrôle comme NUL). Revenez en arrière, retirez-le et réessayez.',
  },
  'error.back': {
    en: 'Back to your account',
    fr: 'Retour à votre compte',
  },
  'mail.verify.subject': {
    en: 'Confirm your e-mail address',
    fr: 'Confirmez votre adresse e-mail',
  },
  'mail.verify.body': {
    en: 'Welcome! Open this link within 24 hours to confirm your e-mail address:',
    fr: 'Bienvenue ! Ouvrez ce lien dans les 24 heures pour confirmer votre adresse e-mail :',
  },
  'mail.reset.subject': {
    en: 'Reset your password',
    fr: 'Réinitialisez votre mot de passe',
  },
  'mail.reset.body': {
    en: 'Open this link within one hour to choose a new password. If you did not ask, ignore this message:',
    fr: 'Ouvrez ce lien dans l’heure pour choisir un nouveau mot de passe. Si vous n’avez rien demandé, ignorez ce message :',
  },
  'mail.invite.subject': {
    en: '{brand} invited you to its delivery account',
    fr: '{brand} vous invite dans son espace de livraison',
  },
  'mail.invite.body': {
    en: 'You have been invited to the delivery account of {brand}. Open this link within 7 days to choose your password; you will then be signed in:',
    fr: 'Vous êtes invité(e) dans l’espace de livraison de {brand}. Ouvrez ce lien dans les 7 jours pour choisir votre mot de passe ; vous serez alors connecté(e) :',
  },
  'invite.title': {
    en: 'Choose your password',
    fr: 'Choisir votre mot de passe',
  },
  'invite.welcome': {
    en: 'Welcome to {brand}: your password is set and you are signed in.',
    fr: 'Bienvenue chez {brand} : votre mot de passe est enregistré et vous êtes connecté(e).',
  },
  'mail.inviteClash.subject': {
    en: '{brand} invited you to its delivery account',
    fr: '{brand} vous invite dans son espace de livraison',
  },
  'mail.inviteClash.body': {
    en: '{brand} invited you to join its delivery account, but this address already has an account with another company. An address belongs to one company only: you cannot join {brand} while you are a member of your current company, and nothing has changed in your account. To join, ask {brand} to invite another address, or ask your current company to remove you and then {brand} to invite you again. You can sign in to your current account here:',
    fr: '{brand} vous a invité(e) dans son espace de livraison, mais cette adresse a déjà un compte dans une autre société. Une adresse n’appartient qu’à une société : vous ne pouvez pas rejoindre {brand} tant que vous êtes membre de votre société actuelle, et rien n’a changé dans votre compte. Pour la rejoindre, demandez à {brand} d’inviter une autre adresse, ou demandez à votre société actuelle de vous retirer puis à {brand} de vous inviter à nouveau. Vous pouvez vous connecter à votre compte actuel ici :',
  },
  'mail.shopLink.subject': {
    en: 'Your shop {shop} needs your attention',
    fr: 'Votre boutique {shop} demande votre attention',
  },
  'mail.shopLink.body': {
    en: 'Our link to your shop {shop} ({platform}) has stopped working: {reason}. Orders from it no longer reach us until it is linked again. Sign in and link the shop again from the Shops page:',
    fr: 'Notre liaison avec votre boutique {shop} ({platform}) ne fonctionne plus : {reason}. Ses commandes ne nous parviennent plus tant qu’elle n’est pas reliée à nouveau. Connectez-vous et reliez la boutique depuis la page Boutiques :',
  },
  'mail.exists.subject': {
    en: 'You already have an account',
    fr: 'Vous avez déjà un compte',
  },
  'mail.exists.body': {
    en: 'Someone (you?) tried to create an account with this address, which already has one. Sign in, or reset your password from the sign-in page:',
    fr: 'Quelqu’un (vous ?) a voulu créer un compte avec cette adresse, qui en a déjà un. Connectez-vous, ou réinitialisez votre mot de passe depuis la page de connexion :',
  },
  // Orders and invoices pages.
  'nav.orders': {
    en: 'Orders',
    fr: 'Commandes',
  },
  'nav.invoices': {
    en: 'Invoices',
    fr: 'Factures',
  },
  'orders.title': {
    en: 'Orders',
    fr: 'Commandes',
  },
  'orders.none': {
    en: 'No order matches.',
    fr: 'Aucune commande ne correspond.',
  },
  'orders.search': {
    en: 'Search',
    fr: 'Rechercher',
  },
  'orders.searchHint': {
    en: 'Tracking reference, or your own reference (or its beginning)',
    fr: 'Référence de suivi, ou votre propre référence (ou son début)',
  },
  'orders.status': {
    en: 'Status',
    fr: 'Statut',
  },
  'orders.allStatuses': {
    en: 'All statuses',
    fr: 'Tous les statuts',
  },
  'orders.apply': {
    en: 'Show',
    fr: 'Afficher',
  },
  'orders.clear': {
    en: 'Clear',
    fr: 'Effacer',
  },
  'orders.older': {
    en: 'Older orders',
    fr: 'Commandes plus anciennes',
  },
  'orders.newest': {
    en: 'Newest orders',
    fr: 'Commandes les plus récentes',
  },
  'orders.trackingRef': {
    en: 'Tracking ref.',
    fr: 'Réf. de suivi',
  },
  'orders.reference': {
    en: 'Your reference',
    fr: 'Votre référence',
  },
  'orders.destination': {
    en: 'Destination',
    fr: 'Destination',
  },
  'orders.price': {
    en: 'Price incl. VAT',
    fr: 'Prix TTC',
  },
  'orders.priceExcl': {
    en: 'Price excl. VAT',
    fr: 'Prix HT',
  },
  'orders.vat': {
    en: 'VAT',
    fr: 'TVA',
  },
  'orders.promised': {
    en: 'Promised for',
    fr: 'Promise pour le',
  },
  'orders.created': {
    en: 'Created',
    fr: 'Créée le',
  },
  'orders.timeline': {
    en: 'History',
    fr: 'Historique',
  },
  'orders.details': {
    en: 'Details',
    fr: 'Détails',
  },
  'orders.pickup': {
    en: 'Pickup address',
    fr: 'Adresse d’enlèvement',
  },
  'orders.delivery': {
    en: 'Delivery address',
    fr: 'Adresse de livraison',
  },
  'orders.recipient': {
    en: 'Recipient',
    fr: 'Destinataire',
  },
  'orders.phone': {
    en: 'Phone',
    fr: 'Téléphone',
  },
  'orders.recipientEmail': {
    en: 'Recipient’s e-mail',
    fr: 'E-mail du destinataire',
  },
  'orders.customerEmail': {
    en: 'Customer’s e-mail',
    fr: 'E-mail du client',
  },
  'orders.service': {
    en: 'Service',
    fr: 'Service',
  },
  'orders.units': {
    en: 'Units',
    fr: 'Colis',
  },
  'orders.unitsValue': {
    en: '{quantity} × {unit}, {weight} each',
    fr: '{quantity} × {unit}, {weight} chacun',
  },
  'orders.trackingLink': {
    en: 'Recipient’s tracking page',
    fr: 'Page de suivi du destinataire',
  },
  'orders.trackingLinkHint': {
    en: 'The page your recipient follows the delivery on; select the address to copy it.',
    fr: 'La page où votre destinataire suit la livraison ; sélectionnez l’adresse pour la copier.',
  },
  'orders.notPriced': {
    en: 'not priced yet: the delivery address is missing',
    fr: 'pas encore tarifée : l’adresse de livraison manque',
  },
  'orders.cancel': {
    en: 'Cancel this order',
    fr: 'Annuler cette commande',
  },
  'orders.cancelTitle': {
    en: 'Cancel order {ref}?',
    fr: 'Annuler la commande {ref} ?',
  },
  'orders.cancelWarning': {
    en: 'The order will not be picked up, and this cannot be undone. If it is already on an issued invoice, a credit note is issued for it.',
    fr: 'La commande ne sera pas enlevée, et c’est définitif. Si elle figure déjà sur une facture émise, un avoir est émis pour elle.',
  },
  'orders.cancelConfirm': {
    en: 'Yes, cancel the order',
    fr: 'Oui, annuler la commande',
  },
  'orders.keep': {
    en: 'No, keep it',
    fr: 'Non, la garder',
  },
  'orders.cancelled': {
    en: 'Order {ref} is cancelled.',
    fr: 'La commande {ref} est annulée.',
  },
  'orders.notCancellable': {
    en: 'This order can no longer be cancelled: it is “{status}”. An order can be cancelled only before pickup.',
    fr: 'Cette commande ne peut plus être annulée : elle est « {status} ». Une commande ne s’annule qu’avant l’enlèvement.',
  },
  'orders.readOnly': {
    en: 'Your role lets you view orders, not cancel them.',
    fr: 'Votre rôle permet de consulter les commandes, pas de les annuler.',
  },
  'orders.back': {
    en: 'Back to the orders',
    fr: 'Retour aux commandes',
  },
  'proof.title': {
    en: 'Proof of delivery',
    fr: 'Preuve de livraison',
  },
  'proof.deliveredAt': {
    en: 'Delivered',
    fr: 'Livré le',
  },
  'proof.receivedBy': {
    en: 'Received by',
    fr: 'Remis à',
  },
  'proof.place': {
    en: 'Place (to about 100 m)',
    fr: 'Lieu (à 100 m près environ)',
  },
  'proof.map': {
    en: 'see on a map',
    fr: 'voir sur une carte',
  },
  'proof.photo': {
    en: 'Photo at the door',
    fr: 'Photo à la porte',
  },
  'proof.signature': {
    en: 'Signature',
    fr: 'Signature',
  },
  'proof.erased': {
    en: 'The photo and the signature are erased 90 days after the delivery; the facts above are kept.',
    fr: 'La photo et la signature sont effacées 90 jours après la livraison ; les informations ci-dessus sont conservées.',
  },
  'proof.failedAttempts': {
    en: 'Failed delivery attempts',
    fr: 'Tentatives de livraison manquées',
  },
  'proof.reason.absent': {
    en: 'Recipient absent',
    fr: 'Destinataire absent',
  },
  'proof.reason.refused': {
    en: 'Refused by the recipient',
    fr: 'Refusé par le destinataire',
  },
  'proof.reason.address_not_found': {
    en: 'Address not found',
    fr: 'Adresse introuvable',
  },
  'proof.reason.no_access': {
    en: 'No access to the building',
    fr: 'Accès impossible à l’immeuble',
  },
  'proof.reason.damaged': {
    en: 'Parcel damaged',
    fr: 'Colis endommagé',
  },
  'labels.title': {
    en: 'Labels',
    fr: 'Étiquettes',
  },
  'labels.print': {
    en: 'Print labels',
    fr: 'Imprimer les étiquettes',
  },
  'labels.printOne': {
    en: 'Print label',
    fr: 'Imprimer l’étiquette',
  },
  'labels.hint': {
    en: 'Tick the orders to print, choose the format, then print: a PDF opens in a new tab, ZPL (thermal printers) downloads. One label per parcel.',
    fr: 'Cochez les commandes à imprimer, choisissez le format, puis imprimez : un PDF s’ouvre dans un nouvel onglet, le ZPL (imprimantes thermiques) se télécharge. Une étiquette par colis.',
  },
  'labels.select': {
    en: 'Select {ref}',
    fr: 'Sélectionner {ref}',
  },
  'labels.selectColumn': {
    en: 'Print',
    fr: 'Imprimer',
  },
  'labels.format': {
    en: 'Format',
    fr: 'Format',
  },
  'labels.size': {
    en: 'Size',
    fr: 'Taille',
  },
  'labels.pdf': {
    en: 'PDF',
    fr: 'PDF',
  },
  'labels.zpl': {
    en: 'ZPL (thermal printer)',
    fr: 'ZPL (imprimante thermique)',
  },
  'labels.a6': {
    en: 'A6 (105 × 148 mm)',
    fr: 'A6 (105 × 148 mm)',
  },
  'labels.4x6': {
    en: '4 × 6 in (102 × 152 mm)',
    fr: '4 × 6 pouces (102 × 152 mm)',
  },
  'labels.noneSelected': {
    en: 'Nothing was printed: tick at least one order.',
    fr: 'Rien n’a été imprimé : cochez au moins une commande.',
  },
  'labels.notLabellable': {
    en: 'Nothing was printed: {refs} cannot be collected (the delivery address is missing, or the order is cancelled), so it has no label.',
    fr: 'Rien n’a été imprimé : {refs} ne peut pas être enlevée (adresse de livraison manquante, ou commande annulée), elle n’a donc pas d’étiquette.',
  },
  'labels.unknown': {
    en: 'Nothing was printed: {refs} is not one of your orders.',
    fr: 'Rien n’a été imprimé : {refs} ne fait pas partie de vos commandes.',
  },
  'labels.tooMany': {
    en: 'Nothing was printed: these orders make more than 1,000 labels (one per parcel). Print fewer at once.',
    fr: 'Rien n’a été imprimé : ces commandes font plus de 1 000 étiquettes (une par colis). Imprimez-en moins à la fois.',
  },
  'labels.unavailable': {
    en: 'No label: an order can be collected, and labelled, once it has its delivery address and unless it is cancelled.',
    fr: 'Pas d’étiquette : une commande peut être enlevée, et étiquetée, une fois son adresse de livraison connue et tant qu’elle n’est pas annulée.',
  },
  'orderStatus.awaiting_address': {
    en: 'Awaiting address',
    fr: 'En attente d’adresse',
  },
  'orderStatus.pending': {
    en: 'Pending',
    fr: 'En attente',
  },
  'orderStatus.picked_up': {
    en: 'Picked up',
    fr: 'Enlevée',
  },
  'orderStatus.in_transit': {
    en: 'In transit',
    fr: 'En transit',
  },
  'orderStatus.out_for_delivery': {
    en: 'Out for delivery',
    fr: 'En cours de livraison',
  },
  'orderStatus.failed_attempt': {
    en: 'Failed attempt',
    fr: 'Tentative échouée',
  },
  'orderStatus.delivered': {
    en: 'Delivered',
    fr: 'Livrée',
  },
  'orderStatus.returned': {
    en: 'Returned',
    fr: 'Retournée',
  },
  'orderStatus.cancelled': {
    en: 'Cancelled',
    fr: 'Annulée',
  },
  'service.express': {
    en: 'Express — same day',
    fr: 'Express — le jour même',
  },
  'service.standard': {
    en: 'Standard — next business day',
    fr: 'Standard — jour ouvré suivant',
  },
  'service.economy': {
    en: 'Economy — 3 business days',
    fr: 'Économique — 3 jours ouvrés',
  },
  'unit.parcel': {
    en: 'parcel',
    fr: 'colis',
  },
  'unit.envelope': {
    en: 'envelope',
    fr: 'enveloppe',
  },
  'unit.bulky': {
    en: 'bulky item',
    fr: 'objet encombrant',
  },
  'unit.pallet': {
    en: 'pallet',
    fr: 'palette',
  },
  'invoices.title': {
    en: 'Invoices',
    fr: 'Factures',
  },
  'invoices.none': {
    en: 'No invoice yet.',
    fr: 'Aucune facture pour l’instant.',
  },
  'invoices.period': {
    en: 'Period',
    fr: 'Période',
  },
  'invoices.number': {
    en: 'Number',
    fr: 'Numéro',
  },
  'invoices.type': {
    en: 'Type',
    fr: 'Type',
  },
  'invoices.status': {
    en: 'Status',
    fr: 'Statut',
  },
  'invoices.orderCount': {
    en: 'Orders',
    fr: 'Commandes',
  },
  'invoices.totalExcl': {
    en: 'Total excl. VAT',
    fr: 'Total HT',
  },
  'invoices.vat': {
    en: 'VAT',
    fr: 'TVA',
  },
  'invoices.total': {
    en: 'Total incl. VAT',
    fr: 'Total TTC',
  },
  'invoices.issuedAt': {
    en: 'Issued',
    fr: 'Émise le',
  },
  'invoices.dueDate': {
    en: 'Due',
    fr: 'Échéance',
  },
  'invoices.paidAt': {
    en: 'Paid',
    fr: 'Payée le',
  },
  'invoices.unnumbered': {
    en: 'not numbered yet',
    fr: 'pas encore numérotée',
  },
  'invoices.draftNote': {
    en: 'A draft: the month is still accruing, or is about to be invoiced. Its amounts may change.',
    fr: 'Un brouillon : le mois est en cours, ou sa facture va être émise. Les montants peuvent encore changer.',
  },
  'invoices.credits': {
    en: 'Corrects invoice {number}.',
    fr: 'Corrige la facture {number}.',
  },
  'invoices.pdf': {
    en: 'Download the PDF',
    fr: 'Télécharger le PDF',
  },
  'invoices.lines': {
    en: 'Billed orders',
    fr: 'Commandes facturées',
  },
  'invoices.noLines': {
    en: 'No billed order.',
    fr: 'Aucune commande facturée.',
  },
  'invoices.older': {
    en: 'Older invoices',
    fr: 'Factures plus anciennes',
  },
  'invoices.newest': {
    en: 'Newest invoices',
    fr: 'Factures les plus récentes',
  },
  'invoices.back': {
    en: 'Back to the invoices',
    fr: 'Retour aux factures',
  },
  'invoiceType.invoice': {
    en: 'Invoice',
    fr: 'Facture',
  },
  'invoiceType.credit_note': {
    en: 'Credit note',
    fr: 'Avoir',
  },
  'invoices.einvoice': {
    en: 'E-invoice (Factur-X)',
    fr: 'Facture électronique (Factur-X)',
  },
  'einvoiceStatus.pending': { en: 'To be sent to the platform', fr: 'À transmettre à la plateforme' },
  'einvoiceStatus.deposited': { en: 'Deposited', fr: 'Déposée' },
  'einvoiceStatus.received': { en: 'Received', fr: 'Reçue' },
  'einvoiceStatus.accepted': { en: 'Accepted', fr: 'Acceptée' },
  'einvoiceStatus.refused': { en: 'Refused', fr: 'Refusée' },
  'einvoiceStatus.rejected': { en: 'Rejected by the platform', fr: 'Rejetée par la plateforme' },
  'einvoiceStatus.paid': { en: 'Payment reported', fr: 'Encaissement transmis' },
  'nav.emissions': { en: 'Emissions', fr: 'Émissions' },
  'emissions.title': { en: 'Greenhouse-gas emissions', fr: 'Émissions de gaz à effet de serre' },
  'emissions.intro': {
    en: 'The CO₂e of your orders delivered or returned each month (Code des transports, L1431-3), with the method. Download the month’s statement as a PDF or a spreadsheet.',
    fr: 'Le CO₂e de vos commandes livrées ou retournées chaque mois (Code des transports, L1431-3), avec la méthode. Téléchargez l’information du mois en PDF ou en tableur.',
  },
  'emissions.none': {
    en: 'No order delivered yet: the first month appears with the first delivery.',
    fr: 'Aucune commande livrée pour l’instant : le premier mois apparaît avec la première livraison.',
  },
  'emissions.period': { en: 'Month', fr: 'Mois' },
  'emissions.orders': { en: 'Orders', fr: 'Commandes' },
  'emissions.total': { en: 'CO₂e', fr: 'CO₂e' },
  'emissions.statement': { en: 'Statement', fr: 'Information' },
  'orders.co2e': { en: 'CO₂e of the transport', fr: 'CO₂e du transport' },
  'invoiceStatus.draft': {
    en: 'Draft',
    fr: 'Brouillon',
  },
  'invoiceStatus.issued': {
    en: 'Issued',
    fr: 'Émise',
  },
  'invoiceStatus.paid': {
    en: 'Paid',
    fr: 'Payée',
  },
  // Rates, webhooks and company pages.
  'nav.rates': {
    en: 'Rates',
    fr: 'Tarifs',
  },
  'nav.webhooks': {
    en: 'Webhooks',
    fr: 'Webhooks',
  },
  'nav.company': {
    en: 'Company',
    fr: 'Entreprise',
  },
  'rates.title': {
    en: 'Your rates',
    fr: 'Vos tarifs',
  },
  'rates.intro': {
    en: 'What POST /rates answers your API keys: your negotiated prices, VAT included, and promised dates.',
    fr: 'Ce que POST /rates répond à vos clés d’API : vos prix négociés, TTC, et les dates promises.',
  },
  'rates.address': {
    en: 'Delivery address or postcode',
    fr: 'Adresse ou code postal de livraison',
  },
  'rates.unitType': {
    en: 'Unit type',
    fr: 'Type de colis',
  },
  'rates.unitWeight': {
    en: 'Weight of one unit (e.g. 2.5kg, 500g)',
    fr: 'Poids d’une unité (ex. 2,5kg, 500g)',
  },
  'rates.quantity': {
    en: 'Quantity',
    fr: 'Quantité',
  },
  'rates.submit': {
    en: 'Show the rates',
    fr: 'Voir les tarifs',
  },
  'rates.results': {
    en: 'Rates for {place}',
    fr: 'Tarifs pour {place}',
  },
  'rates.service': {
    en: 'Service',
    fr: 'Service',
  },
  'rates.price': {
    en: 'Price incl. VAT',
    fr: 'Prix TTC',
  },
  'rates.priceExcl': {
    en: 'Excl. VAT',
    fr: 'HT',
  },
  'rates.delay': {
    en: 'Delay',
    fr: 'Délai',
  },
  'rates.days': {
    en: '{n} business day(s)',
    fr: '{n} jour(s) ouvré(s)',
  },
  'rates.sameDay': {
    en: 'same day',
    fr: 'le jour même',
  },
  'rates.promised': {
    en: 'Promised date',
    fr: 'Date promise',
  },
  'rates.outOfZone': {
    en: 'Not available: {place} is outside the delivery zone (Île-de-France only).',
    fr: 'Indisponible : {place} est hors de la zone de livraison (Île-de-France uniquement).',
  },
  'rates.unknown': {
    en: 'Not available: no known French postcode in this destination.',
    fr: 'Indisponible : aucun code postal français connu dans cette destination.',
  },
  'rates.incomplete': {
    en: 'Not available: your price grid has no price for this zone, unit type and weight for every service. Ask your contact to complete it.',
    fr: 'Indisponible : votre grille n’a pas de prix pour cette zone, ce type et ce poids pour chaque service. Demandez à votre contact de la compléter.',
  },
  'rates.api': {
    en: 'Same question through the API:',
    fr: 'La même question par l’API :',
  },
  'unitType.parcel': {
    en: 'Parcel',
    fr: 'Colis',
  },
  'unitType.envelope': {
    en: 'Envelope',
    fr: 'Pli',
  },
  'unitType.bulky': {
    en: 'Bulky item',
    fr: 'Encombrant',
  },
  'unitType.pallet': {
    en: 'Pallet',
    fr: 'Palette',
  },
  'webhooks.title': {
    en: 'Webhooks',
    fr: 'Webhooks',
  },
  'webhooks.intro': {
    en: 'Signed notifications of your orders and invoices: endpoints set up by our team, and subscriptions your tools (Zapier, n8n, Make…) make through the API once we have opened it to you. Request access below.',
    fr: 'Notifications signées de vos commandes et factures : points d’accès créés par notre équipe, et abonnements créés par vos outils (Zapier, n8n, Make…) par l’API une fois que nous vous l’avons ouverte. Demandez l’accès ci-dessous.',
  },
  'webhooks.allowed': {
    en: 'Webhook subscriptions are open to your brand: create an API key with the webhooks:write scope for your tools.',
    fr: 'Les abonnements webhook sont ouverts à votre marque : créez une clé d’API avec le droit webhooks:write pour vos outils.',
  },
  'webhooks.notAllowed': {
    en: 'Webhook subscriptions are not open to your brand yet: request access below, and we will open them or set up your endpoint.',
    fr: 'Les abonnements webhook ne sont pas encore ouverts à votre marque : demandez l’accès ci-dessous, nous les ouvrirons ou créerons votre point d’accès.',
  },
  'webhooks.origin': {
    en: 'Made by',
    fr: 'Créé par',
  },
  'webhooks.origin.operator': {
    en: 'our team',
    fr: 'notre équipe',
  },
  'webhooks.origin.api': {
    en: 'your tools, through the API',
    fr: 'vos outils, par l’API',
  },
  'webhooks.delete': {
    en: 'Delete this subscription',
    fr: 'Supprimer cet abonnement',
  },
  'webhooks.none': {
    en: 'No webhook endpoint yet.',
    fr: 'Aucun point d’accès webhook pour l’instant.',
  },
  'webhooks.events': {
    en: 'Events',
    fr: 'Événements',
  },
  'webhooks.status': {
    en: 'Status',
    fr: 'État',
  },
  'webhooks.active': {
    en: 'active',
    fr: 'actif',
  },
  'webhooks.disabled': {
    en: 'disabled',
    fr: 'désactivé',
  },
  'webhooks.deliveries': {
    en: 'Last deliveries',
    fr: 'Derniers envois',
  },
  'webhooks.noDeliveries': {
    en: 'No delivery yet.',
    fr: 'Aucun envoi pour l’instant.',
  },
  'webhooks.event': {
    en: 'Event',
    fr: 'Événement',
  },
  'webhooks.attempts': {
    en: 'Attempts',
    fr: 'Tentatives',
  },
  'webhooks.lastHttp': {
    en: 'Last HTTP status',
    fr: 'Dernier statut HTTP',
  },
  'webhooks.at': {
    en: 'Time',
    fr: 'Date',
  },
  'webhooks.delivery.pending': {
    en: 'pending',
    fr: 'en attente',
  },
  'webhooks.delivery.succeeded': {
    en: 'delivered',
    fr: 'livré',
  },
  'webhooks.delivery.failed': {
    en: 'failed, will retry',
    fr: 'échec, nouvel essai prévu',
  },
  'webhooks.delivery.exhausted': {
    en: 'given up',
    fr: 'abandonné',
  },
  'webhooks.request': {
    en: 'Request access to webhooks',
    fr: 'Demander l’accès aux webhooks',
  },
  'webhooks.url': {
    en: 'Endpoint URL (https, reachable from the internet)',
    fr: 'URL du point d’accès (https, joignable depuis internet)',
  },
  'webhooks.message': {
    en: 'Message for our team (optional)',
    fr: 'Message pour notre équipe (facultatif)',
  },
  'webhooks.send': {
    en: 'Send the request',
    fr: 'Envoyer la demande',
  },
  'webhooks.sent': {
    en: 'Your request is recorded: our team will open webhook subscriptions to your brand, or set the endpoint up and send you its signing secret.',
    fr: 'Votre demande est enregistrée : notre équipe ouvrira les abonnements webhook à votre marque, ou créera le point d’accès et vous enverra son secret de signature.',
  },
  'webhooks.requests': {
    en: 'Your requests',
    fr: 'Vos demandes',
  },
  'webhooks.request.open': {
    en: 'open',
    fr: 'ouverte',
  },
  'webhooks.request.done': {
    en: 'done',
    fr: 'traitée',
  },
  'webhooks.request.declined': {
    en: 'declined',
    fr: 'refusée',
  },
  'company.title': {
    en: 'Company',
    fr: 'Entreprise',
  },
  'company.intro': {
    en: 'Printed in the buyer block of your invoices. Leave a field empty to leave it out.',
    fr: 'Imprimé dans le bloc client de vos factures. Laissez un champ vide pour l’omettre.',
  },
  'company.readOnly': {
    en: 'Only the account owner can change these details.',
    fr: 'Seul le propriétaire du compte peut modifier ces informations.',
  },
  'company.legalName': {
    en: 'Legal name',
    fr: 'Raison sociale',
  },
  'company.billingAddress': {
    en: 'Billing address',
    fr: 'Adresse de facturation',
  },
  'company.siren': {
    en: 'SIREN (9 digits)',
    fr: 'SIREN (9 chiffres)',
  },
  'company.siret': {
    en: 'SIRET of the establishment billed (14 digits, optional)',
    fr: 'SIRET de l’établissement facturé (14 chiffres, facultatif)',
  },
  'company.einvoiceNeeds': {
    en: 'Your invoices are electronic invoices (Factur-X) sent through an approved platform: they need your SIREN and a billing address with its postcode and city. Until both are given, your monthly invoice cannot be issued.',
    fr: 'Vos factures sont des factures électroniques (Factur-X) transmises par une plateforme agréée : elles demandent votre SIREN et une adresse de facturation avec code postal et ville. Tant que les deux manquent, votre facture mensuelle ne peut pas être émise.',
  },
  'company.vat': {
    en: 'Intra-community VAT number',
    fr: 'Numéro de TVA intracommunautaire',
  },
  'company.pickup': {
    en: 'Default pickup address (Île-de-France), used by orders that give none',
    fr: 'Adresse d’enlèvement par défaut (Île-de-France), pour les commandes qui n’en donnent pas',
  },
  'company.save': {
    en: 'Save',
    fr: 'Enregistrer',
  },
  'company.saved': {
    en: 'Saved. Your next invoice PDFs show these details.',
    fr: 'Enregistré. Vos prochains PDF de facture portent ces informations.',
  },
  'company.unset': {
    en: 'not set',
    fr: 'non renseigné',
  },
  'company.trackingTitle': {
    en: 'Tracking page',
    fr: 'Page de suivi',
  },
  'company.trackingPhoto': {
    en: 'Show the delivery photo on the tracking page',
    fr: 'Afficher la photo de livraison sur la page de suivi',
  },
  'company.trackingPhotoHint': {
    en: 'Your recipients then see the photo the courier took at the door (for 90 days). Off by default: the photo of a doorstep is yours to publish.',
    fr: 'Vos destinataires voient alors la photo prise par le livreur à la porte (pendant 90 jours). Désactivé par défaut : c’est à vous de décider de publier la photo d’un pas de porte.',
  },
  'company.trackingPhotoOn': {
    en: 'The delivery photo is shown on the tracking page.',
    fr: 'La photo de livraison est affichée sur la page de suivi.',
  },
  'company.trackingPhotoOff': {
    en: 'The delivery photo is not shown on the tracking page.',
    fr: 'La photo de livraison n’est pas affichée sur la page de suivi.',
  },
  'company.trackingSaved': {
    en: 'Saved. Tracking pages follow this choice at once.',
    fr: 'Enregistré. Les pages de suivi suivent ce choix immédiatement.',
  },
  // Key roll and team members
  'keys.roll': {
    en: 'Roll',
    fr: 'Renouveler',
  },
  'keys.rollTitle': {
    en: 'Roll this key?',
    fr: 'Renouveler cette clé ?',
  },
  'keys.rollIntro': {
    en: 'A new key with the same scopes replaces this one. Deploy the new key, then let the old one stop.',
    fr: 'Une nouvelle clé avec les mêmes droits remplace celle-ci. Déployez la nouvelle clé, puis laissez l’ancienne s’arrêter.',
  },
  'keys.rollGrace': {
    en: 'The old key keeps working',
    fr: 'L’ancienne clé reste valable',
  },
  'keys.grace.now': {
    en: 'no longer: it stops now',
    fr: 'plus du tout : elle s’arrête maintenant',
  },
  'keys.grace.1h': {
    en: 'for 1 hour',
    fr: 'pendant 1 heure',
  },
  'keys.grace.24h': {
    en: 'for 24 hours',
    fr: 'pendant 24 heures',
  },
  'keys.grace.7d': {
    en: 'for 7 days',
    fr: 'pendant 7 jours',
  },
  'keys.rollConfirm': {
    en: 'Roll the key',
    fr: 'Renouveler la clé',
  },
  'keys.expiresAt': {
    en: 'stops working on {at}',
    fr: 'valable jusqu’au {at}',
  },
  'keys.expired': {
    en: 'expired',
    fr: 'expirée',
  },
  'keys.action.rolled': {
    en: 'rolled',
    fr: 'renouvelée',
  },
  'nav.team': {
    en: 'Team',
    fr: 'Équipe',
  },
  'team.title': {
    en: 'Team',
    fr: 'Équipe',
  },
  'team.email': {
    en: 'E-mail',
    fr: 'E-mail',
  },
  'team.role': {
    en: 'Role',
    fr: 'Rôle',
  },
  'team.verified': {
    en: 'Confirmed',
    fr: 'Confirmé',
  },
  'team.created': {
    en: 'Added',
    fr: 'Ajouté le',
  },
  'team.yes': {
    en: 'yes',
    fr: 'oui',
  },
  'team.no': {
    en: 'not yet',
    fr: 'pas encore',
  },
  'team.you': {
    en: '(you)',
    fr: '(vous)',
  },
  'team.change': {
    en: 'Change',
    fr: 'Modifier',
  },
  'team.remove': {
    en: 'Remove',
    fr: 'Retirer',
  },
  'team.invite': {
    en: 'Invite someone',
    fr: 'Inviter quelqu’un',
  },
  'team.inviteSubmit': {
    en: 'Send the invitation',
    fr: 'Envoyer l’invitation',
  },
  'team.invited': {
    en: 'Invitation sent: the link is valid 7 days.',
    fr: 'Invitation envoyée : le lien est valable 7 jours.',
  },
  'team.changed': {
    en: 'Role changed.',
    fr: 'Rôle modifié.',
  },
  'team.removed': {
    en: 'The person has been removed: their sessions have ended.',
    fr: 'La personne a été retirée : ses sessions ont pris fin.',
  },
  'team.removeTitle': {
    en: 'Remove this person?',
    fr: 'Retirer cette personne ?',
  },
  'team.removeWarning': {
    en: '{email} will lose access to the account at once (their sessions end). The keys they created keep working.',
    fr: '{email} perdra l’accès au compte immédiatement (ses sessions prennent fin). Les clés créées restent valables.',
  },
  'team.removeConfirm': {
    en: 'Yes, remove',
    fr: 'Oui, retirer',
  },
  'team.cancel': {
    en: 'Cancel',
    fr: 'Annuler',
  },
  'team.lastOwner': {
    en: 'The brand must keep at least one owner.',
    fr: 'La marque doit garder au moins un propriétaire.',
  },
  'team.notYourself': {
    en: 'You cannot remove yourself or change your own role.',
    fr: 'Vous ne pouvez ni vous retirer ni changer votre propre rôle.',
  },
  'team.taken': {
    en: 'This e-mail address already has an account.',
    fr: 'Cette adresse e-mail a déjà un compte.',
  },
  'team.pendingTitle': {
    en: 'Pending invitations',
    fr: 'Invitations en attente',
  },
  'team.invitedOn': {
    en: 'Invited',
    fr: 'Invitée le',
  },
  'team.accepted': {
    en: 'Accepted',
    fr: 'Acceptée',
  },
  'team.pendingUntil': {
    en: 'not yet (link valid until {date})',
    fr: 'pas encore (lien valable jusqu’au {date})',
  },
  'team.cancelInvitation': {
    en: 'Cancel',
    fr: 'Annuler',
  },
  'team.cancelled': {
    en: 'Invitation cancelled: its link no longer works.',
    fr: 'Invitation annulée : son lien ne fonctionne plus.',
  },
  'team.tooManyInvitations': {
    en: 'Too many invitations sent lately: nothing was sent. Try again in an hour.',
    fr: 'Trop d’invitations envoyées ces derniers temps : rien n’a été envoyé. Réessayez dans une heure.',
  },
  'team.addressInvitedTooOften': {
    en: 'This address has been invited several times in the last hour: nothing was sent. Try again later.',
    fr: 'Cette adresse a été invitée plusieurs fois dans l’heure : rien n’a été envoyé. Réessayez plus tard.',
  },
  'team.resendHint': {
    en: 'An invitation is listed until it is accepted, cancelled or expires (7 days). To send a new link (or change the role), invite the address again: the previous link stops working.',
    fr: 'Une invitation reste listée jusqu’à ce qu’elle soit acceptée, annulée ou expirée (7 jours). Pour envoyer un nouveau lien (ou changer le rôle), invitez de nouveau l’adresse : le lien précédent ne fonctionne plus.',
  },
  'invite.clashTitle': {
    en: 'You cannot join {brand}',
    fr: 'Vous ne pouvez pas rejoindre {brand}',
  },
  'invite.clash': {
    en: 'This address already has an account with another company. An address belongs to one company only: you cannot join {brand} while you are a member of your current company, and nothing has changed in your account. To join, ask {brand} to invite another address, or ask your current company to remove you and then {brand} to invite you again.',
    fr: 'Cette adresse a déjà un compte dans une autre société. Une adresse n’appartient qu’à une société : vous ne pouvez pas rejoindre {brand} tant que vous êtes membre de votre société actuelle, et rien n’a changé dans votre compte. Pour la rejoindre, demandez à {brand} d’inviter une autre adresse, ou demandez à votre société actuelle de vous retirer puis à {brand} de vous inviter à nouveau.',
  },
  'nav.shops': {
    en: 'Shops',
    fr: 'Boutiques',
  },
  'shops.title': {
    en: 'Shops',
    fr: 'Boutiques',
  },
  'shops.intro': {
    en: 'Connect your online shop: its paid orders become delivery orders, our rates show at its checkout, and the tracking goes back to the shop.',
    fr: 'Connectez votre boutique en ligne : ses commandes payées deviennent des ordres de livraison, nos tarifs s’affichent à son paiement et le suivi lui est renvoyé.',
  },
  'shops.labels': {
    en: 'Their parcels’ labels are printed from the Orders page, like those of any other order (the shop’s order number is printed as your reference).',
    fr: 'Les étiquettes de leurs colis s’impriment depuis la page Commandes, comme pour toute autre commande (le numéro de commande de la boutique y figure comme votre référence).',
  },
  'shops.shopField': {
    en: 'Your store',
    fr: 'Votre boutique',
  },
  'shops.next': {
    en: 'Next',
    fr: 'Suivant',
  },
  'shops.continueTitle': {
    en: 'Connect {shop}',
    fr: 'Connecter {shop}',
  },
  'shops.confirmText': {
    en: 'Connect the store {shop} to {brand}? Its paid orders will become delivery orders billed to {brand}. Go on only if you asked for it from your own store.',
    fr: 'Connecter la boutique {shop} à {brand} ? Ses commandes payées deviendront des commandes de livraison facturées à {brand}. Continuez seulement si vous l’avez demandé depuis votre propre boutique.',
  },
  'shops.confirmSubmit': {
    en: 'Yes, connect this store',
    fr: 'Oui, connecter cette boutique',
  },
  'shops.verifyFirst': {
    en: 'Confirm your e-mail address (see the link we sent) before connecting a shop: its orders become delivery orders billed to your company.',
    fr: 'Confirmez votre adresse e-mail (lien envoyé) avant de connecter une boutique : ses commandes deviennent des commandes de livraison facturées à votre société.',
  },
  'shops.readOnly': {
    en: 'Owners and developers of your company connect and disconnect shops.',
    fr: 'Les propriétaires et développeurs de votre société connectent et déconnectent les boutiques.',
  },
  'shops.alreadyLinked': {
    en: 'This store is already connected (see below).',
    fr: 'Cette boutique est déjà connectée (voir plus bas).',
  },
  'shops.connected': {
    en: '{shop} is connected: its paid orders will now reach us.',
    fr: '{shop} est connectée : ses commandes payées nous parviennent désormais.',
  },
  'shops.saved': {
    en: 'Settings saved for {shop}.',
    fr: 'Réglages enregistrés pour {shop}.',
  },
  'shops.none': {
    en: 'No shop connected yet.',
    fr: 'Aucune boutique connectée pour l’instant.',
  },
  'shops.yours': {
    en: 'Your shops',
    fr: 'Vos boutiques',
  },
  'shops.status': {
    en: 'Status',
    fr: 'État',
  },
  'shops.status.active': {
    en: 'Active',
    fr: 'Active',
  },
  'shops.status.broken': {
    en: 'Broken',
    fr: 'En panne',
  },
  'shops.status.disconnected': {
    en: 'Disconnected',
    fr: 'Déconnectée',
  },
  'shops.health.active': {
    en: 'Syncing.',
    fr: 'Synchronisation en cours.',
  },
  'shops.health.broken': {
    en: 'Nothing is synced: the shop refused our access. Disconnect it, then connect it again.',
    fr: 'Plus rien n’est synchronisé : la boutique a refusé notre accès. Déconnectez-la, puis connectez-la de nouveau.',
  },
  'shops.lastSync': {
    en: 'Last order update from the shop',
    fr: 'Dernière mise à jour de commande reçue',
  },
  'shops.never': {
    en: 'none yet',
    fr: 'aucune pour l’instant',
  },
  'shops.lastError': {
    en: 'Last problem',
    fr: 'Dernier problème',
  },
  'shops.noError': {
    en: 'none',
    fr: 'aucun',
  },
  'shops.problemCount': {
    en: 'Sync problems',
    fr: 'Problèmes de synchronisation',
  },
  'shops.linkedAt': {
    en: 'Connected',
    fr: 'Connectée le',
  },
  'shops.syncHealth': {
    en: 'Sync',
    fr: 'Synchronisation',
  },
  'shops.settings': {
    en: 'Settings',
    fr: 'Réglages',
  },
  'shops.orderFilter': {
    en: 'Orders to import',
    fr: 'Commandes à importer',
  },
  'shops.orderFilter.ours': {
    en: 'Only orders shipped with our service (chosen at checkout)',
    fr: 'Seulement celles expédiées avec notre service (choisi au paiement)',
  },
  'shops.orderFilter.all': {
    en: 'Every paid order with a shipping address',
    fr: 'Toutes les commandes payées avec une adresse de livraison',
  },
  'shops.notify': {
    en: 'Tracking e-mail to the customer',
    fr: 'E-mail de suivi au client',
  },
  'shops.notify.no': {
    en: 'No e-mail',
    fr: 'Pas d’e-mail',
  },
  'shops.save': {
    en: 'Save the settings',
    fr: 'Enregistrer les réglages',
  },
  'shops.disconnect': {
    en: 'Disconnect',
    fr: 'Déconnecter',
  },
  'shops.disconnectTitle': {
    en: 'Disconnect {shop}?',
    fr: 'Déconnecter {shop} ?',
  },
  'shops.disconnectWarning': {
    en: 'Its new orders will no longer reach us, our rates leave its checkout, and tracking is no longer sent to it. Delivery orders already created carry on. Its access token is erased.',
    fr: 'Ses nouvelles commandes ne nous parviendront plus, nos tarifs quittent son paiement et le suivi ne lui est plus envoyé. Les ordres de livraison déjà créés continuent. Son jeton d’accès est effacé.',
  },
  'shops.disconnectConfirm': {
    en: 'Yes, disconnect',
    fr: 'Oui, déconnecter',
  },
  'shops.cancel': {
    en: 'Cancel',
    fr: 'Annuler',
  },
  'shops.disconnectedTitle': {
    en: 'Shop disconnected',
    fr: 'Boutique déconnectée',
  },
  'shops.disconnectedDone': {
    en: '{shop} is disconnected and its access token is erased.',
    fr: '{shop} est déconnectée et son jeton d’accès est effacé.',
  },
  'shops.back': {
    en: 'Back to the shops',
    fr: 'Retour aux boutiques',
  },
  'shops.past': {
    en: 'Past connections',
    fr: 'Anciennes connexions',
  },
  'shops.disconnectedAt': {
    en: 'Disconnected',
    fr: 'Déconnectée le',
  },
  'shops.reason': {
    en: 'Reason',
    fr: 'Motif',
  },
  'shops.problems': {
    en: 'Sync problems',
    fr: 'Problèmes de synchronisation',
  },
  'shops.problemsIntro': {
    en: 'Orders we could not take or update; the shop is never told. Fix them in the shop or create the delivery order yourself.',
    fr: 'Les commandes que nous n’avons pas pu prendre ou mettre à jour ; la boutique n’en est pas avertie. Corrigez-les dans la boutique ou créez vous-même l’ordre de livraison.',
  },
  'shops.noProblems': {
    en: 'No sync problem.',
    fr: 'Aucun problème de synchronisation.',
  },
  'shops.problemsLimit': {
    en: 'The {n} most recent.',
    fr: 'Les {n} plus récents.',
  },
  'shops.problem.at': {
    en: 'When',
    fr: 'Quand',
  },
  'shops.problem.shop': {
    en: 'Shop',
    fr: 'Boutique',
  },
  'shops.problem.order': {
    en: 'Order',
    fr: 'Commande',
  },
  'shops.problem.kind': {
    en: 'Problem',
    fr: 'Problème',
  },
  'shops.problem.message': {
    en: 'Details',
    fr: 'Détails',
  },
  'shops.kind.out_of_zone': {
    en: 'Address outside our area',
    fr: 'Adresse hors de notre zone',
  },
  'shops.kind.invalid_address': {
    en: 'Address not understood',
    fr: 'Adresse incomprise',
  },
  'shops.kind.unpriceable': {
    en: 'No price for this load',
    fr: 'Pas de tarif pour ce chargement',
  },
  'shops.kind.invalid_order': {
    en: 'Order not usable',
    fr: 'Commande inexploitable',
  },
  'shops.kind.not_cancellable': {
    en: 'Cancelled too late',
    fr: 'Annulée trop tard',
  },
  'shops.kind.sync_failed': {
    en: 'Sync failed',
    fr: 'Échec de synchronisation',
  },
  'shops.kind.data_request': {
    en: 'Customer data request',
    fr: 'Demande de données d’un client',
  },
  // The shop connectors' words shared by every platform: the callback page's and the sync problems'
  // (worded from their kind and `details.code`, values in braces, rather than the CLI's English).
  'shops.callback.title': {
    en: 'Your shop could not be connected',
    fr: 'Votre boutique n’a pas pu être connectée',
  },
  'shops.callback.expired': {
    en: 'This connection request has expired or was already used. Start again from your Shops page.',
    fr: 'Cette demande de connexion a expiré ou a déjà servi. Recommencez depuis votre page Boutiques.',
  },
  'shops.callback.other_browser': {
    en: 'This connection was started in another browser (or its cookies were cleared). Start again from your Shops page, in this browser.',
    fr: 'Cette connexion a été commencée dans un autre navigateur (ou ses cookies ont été effacés). Recommencez depuis votre page Boutiques, dans ce navigateur.',
  },
  'shops.callback.not_allowed': {
    en: 'The person who started this connection may no longer connect shops for this company (removed, or their role changed), so nothing was connected.',
    fr: 'La personne qui a commencé cette connexion ne peut plus connecter de boutique pour cette société (retirée, ou son rôle a changé) : rien n’a été connecté.',
  },
  'shops.callback.already_linked': {
    en: 'This store is already connected. Disconnect it first on the Shops page of the account it is connected to.',
    fr: 'Cette boutique est déjà connectée. Déconnectez-la d’abord depuis la page Boutiques du compte auquel elle est reliée.',
  },
  'shops.callback.failed': {
    en: 'An unexpected error occurred, so nothing was connected. Try again in a moment.',
    fr: 'Une erreur inattendue s’est produite : rien n’a été connecté. Réessayez dans un instant.',
  },
  'shops.problemText.out_of_zone': {
    en: 'The delivery address is outside the area we deliver.',
    fr: 'L’adresse de livraison est hors de la zone que nous livrons.',
  },
  'shops.problemText.invalid_address': {
    en: 'The shipping address could not be understood.',
    fr: 'L’adresse de livraison n’a pas pu être comprise.',
  },
  'shops.problemText.unpriceable': {
    en: 'Your price grid has no price for this order’s service, size or weight.',
    fr: 'Votre grille tarifaire n’a pas de prix pour le service, le format ou le poids de cette commande.',
  },
  'shops.problemText.invalid_order': {
    en: 'The order cannot become a delivery order.',
    fr: 'La commande ne peut pas devenir une commande de livraison.',
  },
  'shops.problemText.owner_unconfirmed': {
    en: 'This order was not created: no owner of your company has confirmed their e-mail address. Confirm it (the link we sent), then ask us to import the order again.',
    fr: 'Cette commande n’a pas été créée : aucun propriétaire de votre société n’a confirmé son adresse e-mail. Confirmez-la (lien envoyé), puis demandez-nous d’importer la commande à nouveau.',
  },
  'shops.problemText.not_cancellable': {
    en: 'The shop cancelled the order, but its delivery can no longer be cancelled.',
    fr: 'La boutique a annulé la commande, mais sa livraison ne peut plus être annulée.',
  },
  'shops.problemText.sync_failed': {
    en: 'An update could not be sent to the shop.',
    fr: 'Une mise à jour n’a pas pu être envoyée à la boutique.',
  },
  'shops.problemText.data_request': {
    en: 'A customer asked for their data: answer within 30 days.',
    fr: 'Un client demande ses données : répondez sous 30 jours.',
  },
  'shops.problemText.outside_france': {
    en: 'The shipping address is outside France ({country}).',
    fr: 'L’adresse de livraison est hors de France ({country}).',
  },
  'shops.problemText.no_shipping_address': {
    en: 'The order has no shipping address.',
    fr: 'La commande n’a pas d’adresse de livraison.',
  },
  'shops.problemText.empty_address': {
    en: 'The shipping address is empty.',
    fr: 'L’adresse de livraison est vide.',
  },
  'shops.problemText.no_email': {
    en: 'The order has no usable customer e-mail.',
    fr: 'La commande n’a pas d’adresse e-mail client utilisable.',
  },
  'shops.problemText.cancelled_too_late': {
    en: 'The shop cancelled the order, but delivery {tracking_ref} is already under way and can no longer be cancelled.',
    fr: 'La boutique a annulé la commande, mais la livraison {tracking_ref} est déjà en cours et ne peut plus être annulée.',
  },
  'shops.problemText.customer_data_request': {
    en: 'Customer {customer} asked for their data (orders: {orders}). Answer within 30 days.',
    fr: 'Le client {customer} demande ses données (commandes : {orders}). Répondez sous 30 jours.',
  },
  'nav.pickups': {
    en: 'Pickups',
    fr: 'Enlèvements',
  },
  'pickups.title': {
    en: 'Pickups',
    fr: 'Enlèvements',
  },
  'pickups.intro': {
    en: "A courier collects your parcels once a business day at your pickup address. Orders created before 12:00 (Paris) join that day's pickup, later ones the next business day's. Parcels not scanned by the courier stay pending and join the next pickup.",
    fr: 'Un coursier enlève vos colis une fois par jour ouvré à votre adresse d’enlèvement. Les commandes créées avant 12 h (Paris) partent le jour même, les suivantes le jour ouvré d’après. Les colis non scannés par le coursier restent en attente et partent à l’enlèvement suivant.',
  },
  'pickups.upcoming': {
    en: 'Upcoming',
    fr: 'À venir',
  },
  'pickups.recent': {
    en: 'Recent',
    fr: 'Récents',
  },
  'pickups.none': {
    en: 'No pickup.',
    fr: 'Aucun enlèvement.',
  },
  'pickups.date': {
    en: 'Day',
    fr: 'Jour',
  },
  'pickups.window': {
    en: 'Window',
    fr: 'Créneau',
  },
  'pickups.address': {
    en: 'Pickup address',
    fr: 'Adresse d’enlèvement',
  },
  'pickups.status': {
    en: 'Status',
    fr: 'Statut',
  },
  'pickups.parcels': {
    en: 'Parcels',
    fr: 'Colis',
  },
  'pickups.missing': {
    en: 'Missing',
    fr: 'Manquants',
  },
  'pickups.missingNote': {
    en: '{count} parcel(s) not collected: they join the next pickup.',
    fr: '{count} colis non enlevé(s) : ils partent à l’enlèvement suivant.',
  },
  'pickups.manifest': {
    en: 'Manifest (PDF)',
    fr: 'Bordereau (PDF)',
  },
  'pickups.ask': {
    en: 'Ask for a collection',
    fr: 'Demander un enlèvement',
  },
  'pickups.askIntro': {
    en: 'A business day, today only before 12:00; window between 08:00 and 19:00, at least 2 hours.',
    fr: 'Un jour ouvré, aujourd’hui seulement avant 12 h ; créneau entre 8 h et 19 h, 2 heures au moins.',
  },
  'pickups.windowStart': {
    en: 'From',
    fr: 'De',
  },
  'pickups.windowEnd': {
    en: 'To',
    fr: 'À',
  },
  'pickups.submit': {
    en: 'Ask for this collection',
    fr: 'Demander cet enlèvement',
  },
  'pickups.asked': {
    en: 'Collection asked for {date}.',
    fr: 'Enlèvement demandé pour le {date}.',
  },
  'pickups.readOnly': {
    en: 'Your role can see pickups but not ask for them.',
    fr: 'Votre rôle permet de voir les enlèvements, pas d’en demander.',
  },
  'pickups.requested': {
    en: 'asked for',
    fr: 'demandé',
  },
  'pickupStatus.planned': {
    en: 'Planned',
    fr: 'Prévu',
  },
  'pickupStatus.collected': {
    en: 'Collected',
    fr: 'Enlevé',
  },
  'pickupStatus.partially_collected': {
    en: 'Partly collected',
    fr: 'Enlevé en partie',
  },
  'pickupStatus.missed': {
    en: 'Missed',
    fr: 'Manqué',
  },
  'pickups.error.date_in_past': {
    en: 'This day is in the past.',
    fr: 'Ce jour est passé.',
  },
  'pickups.error.not_a_business_day': {
    en: 'Not a business day (weekend or public holiday); the next one is {next}.',
    fr: 'Ce n’est pas un jour ouvré (week-end ou jour férié) ; le suivant est le {next}.',
  },
  'pickups.error.pickup_cutoff_passed': {
    en: 'Past 12:00, today can no longer be asked for; the next business day is {next}.',
    fr: 'Passé 12 h, on ne peut plus demander aujourd’hui ; le jour ouvré suivant est le {next}.',
  },
  'pickups.error.no_pickup_address': {
    en: 'Set your pickup address on the company page first.',
    fr: 'Indiquez d’abord votre adresse d’enlèvement sur la page Société.',
  },
  'pickups.error.pickup_closed': {
    en: 'The pickup of this day is already closed.',
    fr: 'L’enlèvement de ce jour est déjà clos.',
  },
  // The recipients' notifications and the brand's look (/account/notifications).
  'nav.notifications': { en: 'Notifications', fr: 'Notifications' },
  'notifications.title': { en: 'Recipient notifications', fr: 'Notifications des destinataires' },
  'notifications.intro': {
    en: 'What we tell the people you ship to, by e-mail and text message, and how your tracking page and our messages look.',
    fr: 'Ce que nous disons aux personnes que vous livrez, par e-mail et SMS, et l’apparence de votre page de suivi et de nos messages.',
  },
  'notifications.saved': { en: 'Your settings are saved.', fr: 'Vos réglages sont enregistrés.' },
  'notifications.logoSaved': { en: 'Your logo is saved.', fr: 'Votre logo est enregistré.' },
  'notifications.logoRemoved': { en: 'Your logo is removed.', fr: 'Votre logo est retiré.' },
  'notifications.fixErrors': {
    en: 'Nothing was saved: correct the fields marked below.',
    fr: 'Rien n’a été enregistré : corrigez les champs signalés ci-dessous.',
  },
  'notifications.steps': { en: 'When we tell them', fr: 'Quand nous les prévenons' },
  'notifications.stepsHint': {
    en: 'Text messages go from our number with your name first, so a recipient can answer STOP. A recipient who unsubscribes gets nothing more from anyone.',
    fr: 'Les SMS partent de notre numéro, votre nom en tête, pour que le destinataire puisse répondre STOP. Un destinataire désinscrit ne reçoit plus rien de personne.',
  },
  'notifications.step': { en: 'Step', fr: 'Étape' },
  'notifications.email': { en: 'E-mail', fr: 'E-mail' },
  'notifications.sms': { en: 'SMS', fr: 'SMS' },
  'notifications.step.confirmed': {
    en: 'Order confirmed, with its delivery day',
    fr: 'Commande confirmée, avec son jour de livraison',
  },
  'notifications.step.out_for_delivery': {
    en: 'Out for delivery, with a 2-hour window',
    fr: 'En cours de livraison, avec un créneau de 2 heures',
  },
  'notifications.step.eta_changed': {
    en: 'Delivery window moved by 30 minutes or more, with the new window',
    fr: 'Créneau de livraison décalé de 30 minutes ou plus, avec le nouveau créneau',
  },
  'notifications.step.delivered': { en: 'Delivered', fr: 'Livré' },
  'notifications.step.failed_attempt': {
    en: 'Delivery attempt failed, with a link to choose another day',
    fr: 'Tentative de livraison échouée, avec un lien pour choisir un autre jour',
  },
  'notifications.emailSteps': { en: 'E-mail steps', fr: 'Étapes par e-mail' },
  'notifications.smsSteps': { en: 'Text message steps', fr: 'Étapes par SMS' },
  'notifications.shopNotifies': {
    en: 'My shop already tells my customers: send nothing',
    fr: 'Ma boutique prévient déjà mes clients : ne rien envoyer',
  },
  'notifications.shopNotifiesHint': {
    en: 'Whatever the steps above, no e-mail and no text message is sent for your orders.',
    fr: 'Quelles que soient les étapes ci-dessus, aucun e-mail ni SMS n’est envoyé pour vos commandes.',
  },
  'notifications.linkedShops': {
    en: 'These linked shops tell your customers themselves (their “notify the customer” setting is on): their orders get nothing from us but the confirmation.',
    fr: 'Ces boutiques liées préviennent elles-mêmes vos clients (leur réglage « prévenir le client » est activé) : leurs commandes ne reçoivent de nous que la confirmation.',
  },
  'notifications.look': { en: 'Name, colour and language', fr: 'Nom, couleur et langue' },
  'notifications.senderName': { en: 'Sender name', fr: 'Nom de l’expéditeur' },
  'notifications.senderNameHint': {
    en: 'The name our e-mails come from. Leave empty for your company’s name ({brand}).',
    fr: 'Le nom sous lequel nos e-mails arrivent. Laissez vide pour le nom de votre société ({brand}).',
  },
  'notifications.colour': { en: 'Colour', fr: 'Couleur' },
  'notifications.colourPicker': { en: 'Choose a colour', fr: 'Choisir une couleur' },
  'notifications.colourHint': {
    en: 'Written #rrggbb (such as #1a73e8). Leave empty for our own colour. The text on it is black or white, whichever reads better.',
    fr: 'Écrite #rrggbb (par exemple #1a73e8). Laissez vide pour notre propre couleur. Le texte posé dessus est noir ou blanc, selon ce qui se lit le mieux.',
  },
  'notifications.locale': { en: 'Language of the messages', fr: 'Langue des messages' },
  'notifications.locale.fr': { en: 'French', fr: 'Français' },
  'notifications.locale.en': { en: 'English', fr: 'Anglais' },
  'notifications.save': { en: 'Save', fr: 'Enregistrer' },
  'notifications.logo': { en: 'Logo', fr: 'Logo' },
  'notifications.logoHint': {
    en: 'PNG, JPEG or WebP, at most 1 MB. We make it a PNG fitting 400 × 120 pixels, shown on the tracking page and in our e-mails.',
    fr: 'PNG, JPEG ou WebP, 1 Mo au plus. Nous en faisons un PNG tenant dans 400 × 120 pixels, affiché sur la page de suivi et dans nos e-mails.',
  },
  'notifications.logoFile': { en: 'Image file', fr: 'Fichier image' },
  'notifications.logoCurrent': { en: 'Your current logo', fr: 'Votre logo actuel' },
  'notifications.logoNone': {
    en: 'No logo yet: the tracking page shows your name.',
    fr: 'Pas encore de logo : la page de suivi affiche votre nom.',
  },
  'notifications.logoUpload': { en: 'Upload the logo', fr: 'Envoyer le logo' },
  'notifications.logoRemove': { en: 'Remove the logo', fr: 'Retirer le logo' },
} satisfies Record<string, Words>;

/** The account area's own words: its pages' and its e-mails' (an order's place among them). */
export const ACCOUNT_WORDS = { ...ACCOUNT, ...PLACES_WORDS };

type MessageKey = keyof typeof ACCOUNT;

export type Translate = (key: MessageKey | string, values?: Record<string, string>) => string;

/**
 * `t` over a table of words, in one language (an unknown one, such as a stored locale, reads
 * English): the account area's words and those its parts add.
 */
export function translatorOf(words: Record<string, Words>): (locale: Locale | string) => Translate {
  return (locale) => {
    const lang: Locale = isLocale(locale) ? locale : 'en';
    return (key, values = {}) =>
      Object.hasOwn(words, key) ? fill(words[key]![lang], values) : fill(key, values);
  };
}

/** The account area's `t` in one language, with its own words only (its e-mails need no other). */
export const translate = translatorOf(ACCOUNT);
