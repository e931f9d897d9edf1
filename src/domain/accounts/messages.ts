/**
 * The account area's words, in French and English. A missing key is a type error; `translate`
 * falls back to the key itself so a slip shows up on the page rather than as an empty string.
 */
export const LOCALES = ['fr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const EN = {
  'app.name': 'Delivery Orders — account',
  'nav.home': 'Home',
  'nav.keys': 'API keys',
  'nav.signOut': 'Sign out',
  'nav.lang': 'Français',
  'signIn.title': 'Sign in',
  'signIn.submit': 'Sign in',
  'signIn.forgot': 'Forgot your password?',
  'signIn.noAccount': 'No account yet? Create one',
  'signIn.disabled': 'This account has been disabled.',
  'signIn.refused': 'The e-mail or the password is wrong.',
  'signUp.title': 'Create your account',
  'signUp.company': 'Company name',
  'signUp.submit': 'Create the account',
  'signUp.closed': 'Accounts are opened by invitation only. Ask your contact at the delivery company.',
  'signUp.sent': 'Almost there: we sent a link to {email}. Open it to confirm your address, then sign in.',
  'field.email': 'E-mail',
  'field.password': 'Password',
  'field.newPassword': 'New password (12 to 128 characters)',
  'verify.title': 'E-mail address',
  'verify.ok': 'Your e-mail address is confirmed. You can sign in.',
  'verify.bad': 'This link has expired or has already been used.',
  'verify.notice': 'Confirm your e-mail address (see the link we sent) before creating API keys.',
  'verify.resend': 'Send the link again',
  'verify.resent': 'A new link is on its way.',
  'forgot.title': 'Reset your password',
  'forgot.submit': 'Send me a link',
  'forgot.sent': 'If an account uses this address, a link valid for one hour is on its way.',
  'reset.title': 'Choose a new password',
  'reset.submit': 'Save the password',
  'reset.done': 'Your password is changed and every session was ended. Sign in again.',
  'home.title': 'Your account',
  'home.brand': 'Company',
  'home.role': 'Your role',
  'home.dev': "Developers' corner",
  'home.baseUrl': 'API base URL',
  'home.docs': 'API reference',
  'home.try': 'Try it with one of your keys:',
  'role.owner': 'Owner',
  'role.developer': 'Developer',
  'role.finance': 'Finance',
  'keys.title': 'API keys',
  'keys.none': 'No key yet.',
  'keys.name': 'Name',
  'keys.prefix': 'Key',
  'keys.scopes': 'Scopes',
  'keys.createdBy': 'Created by',
  'keys.createdAt': 'Created',
  'keys.lastUsed': 'Last used',
  'keys.never': 'never',
  'keys.revoked': 'revoked',
  'keys.revoke': 'Revoke',
  'keys.new': 'New key',
  'keys.create': 'Create the key',
  'keys.stepUp': 'Your password (asked again every 10 minutes for key changes)',
  'keys.created': 'Your new key',
  'keys.createdWarning': 'Copy it now: it is shown only once. We keep only a fingerprint of it.',
  'keys.back': 'Back to the keys',
  'keys.revokeTitle': 'Revoke this key?',
  'keys.revokeWarning': 'Requests using it will be refused within 5 seconds. This cannot be undone.',
  'keys.revokeConfirm': 'Yes, revoke it',
  'keys.cancel': 'Cancel',
  'keys.audit': 'Key history',
  'keys.action.created': 'created',
  'keys.action.revoked': 'revoked',
  'scope.orders:read': 'read orders and track them',
  'scope.orders:write': 'create, change and cancel orders',
  'scope.invoices:read': 'read invoices and credit notes',
  'error.title': 'Something went wrong',
  'error.403': 'You cannot open this page with your role.',
  'error.404': 'This page does not exist.',
  'error.csrf': 'The form expired. Go back, reload the page and try again.',
  'error.429': 'Too many attempts: wait a few minutes and try again.',
  'error.500': 'An unexpected error occurred. Try again in a moment.',
  'error.back': 'Back to your account',
  'mail.verify.subject': 'Confirm your e-mail address',
  'mail.verify.body': 'Welcome! Open this link within 24 hours to confirm your e-mail address:',
  'mail.reset.subject': 'Reset your password',
  'mail.reset.body':
    'Open this link within one hour to choose a new password. If you did not ask, ignore this message:',
  'mail.invite.subject': 'You are invited to your delivery account',
  'mail.invite.body':
    'You have been invited to your company’s delivery account. Open this link within 7 days to choose your password:',
  'invite.title': 'Choose your password',
  'invite.done': 'Your password is set. You can sign in.',
  'mail.exists.subject': 'You already have an account',
  'mail.exists.body':
    'Someone (you?) tried to create an account with this address, which already has one. Sign in, or reset your password from the sign-in page:',
  // Key roll and team members
  'keys.roll': 'Roll',
  'keys.rollTitle': 'Roll this key?',
  'keys.rollIntro':
    'A new key with the same scopes replaces this one. Deploy the new key, then let the old one stop.',
  'keys.rollGrace': 'The old key keeps working',
  'keys.grace.now': 'no longer: it stops now',
  'keys.grace.1h': 'for 1 hour',
  'keys.grace.24h': 'for 24 hours',
  'keys.grace.7d': 'for 7 days',
  'keys.rollConfirm': 'Roll the key',
  'keys.expiresAt': 'stops working on {at}',
  'keys.expired': 'expired',
  'keys.action.rolled': 'rolled',
  'nav.team': 'Team',
  'team.title': 'Team',
  'team.email': 'E-mail',
  'team.role': 'Role',
  'team.verified': 'Confirmed',
  'team.created': 'Added',
  'team.yes': 'yes',
  'team.no': 'not yet',
  'team.you': '(you)',
  'team.change': 'Change',
  'team.remove': 'Remove',
  'team.invite': 'Invite someone',
  'team.inviteSubmit': 'Send the invitation',
  'team.invited': 'Invitation sent: the link is valid 7 days.',
  'team.changed': 'Role changed.',
  'team.removed': 'The person has been removed: their sessions have ended.',
  'team.removeTitle': 'Remove this person?',
  'team.removeWarning':
    '{email} will lose access to the account at once (their sessions end). The keys they created keep working.',
  'team.removeConfirm': 'Yes, remove',
  'team.cancel': 'Cancel',
  'team.lastOwner': 'The brand must keep at least one owner.',
  'team.notYourself': 'You cannot remove yourself or change your own role.',
  'team.taken': 'This e-mail address already has an account.',
} as const;

export type MessageKey = keyof typeof EN;

const FR: Record<MessageKey, string> = {
  'app.name': 'Delivery Orders — espace client',
  'nav.home': 'Accueil',
  'nav.keys': 'Clés d’API',
  'nav.signOut': 'Se déconnecter',
  'nav.lang': 'English',
  'signIn.title': 'Connexion',
  'signIn.submit': 'Se connecter',
  'signIn.forgot': 'Mot de passe oublié ?',
  'signIn.noAccount': 'Pas encore de compte ? Créez-en un',
  'signIn.disabled': 'Ce compte a été désactivé.',
  'signIn.refused': 'L’e-mail ou le mot de passe est incorrect.',
  'signUp.title': 'Créer votre compte',
  'signUp.company': 'Nom de la société',
  'signUp.submit': 'Créer le compte',
  'signUp.closed': 'Les comptes sont ouverts sur invitation. Demandez à votre contact chez le livreur.',
  'signUp.sent':
    'Presque fini : un lien a été envoyé à {email}. Ouvrez-le pour confirmer votre adresse, puis connectez-vous.',
  'field.email': 'E-mail',
  'field.password': 'Mot de passe',
  'field.newPassword': 'Nouveau mot de passe (12 à 128 caractères)',
  'verify.title': 'Adresse e-mail',
  'verify.ok': 'Votre adresse e-mail est confirmée. Vous pouvez vous connecter.',
  'verify.bad': 'Ce lien a expiré ou a déjà servi.',
  'verify.notice': 'Confirmez votre adresse e-mail (lien envoyé) avant de créer des clés d’API.',
  'verify.resend': 'Renvoyer le lien',
  'verify.resent': 'Un nouveau lien est en route.',
  'forgot.title': 'Réinitialiser le mot de passe',
  'forgot.submit': 'M’envoyer un lien',
  'forgot.sent': 'Si un compte utilise cette adresse, un lien valable une heure est en route.',
  'reset.title': 'Choisir un nouveau mot de passe',
  'reset.submit': 'Enregistrer le mot de passe',
  'reset.done': 'Mot de passe changé, toutes les sessions ont été fermées. Reconnectez-vous.',
  'home.title': 'Votre compte',
  'home.brand': 'Société',
  'home.role': 'Votre rôle',
  'home.dev': 'Coin des développeurs',
  'home.baseUrl': 'URL de base de l’API',
  'home.docs': 'Référence de l’API',
  'home.try': 'Essayez avec l’une de vos clés :',
  'role.owner': 'Propriétaire',
  'role.developer': 'Développeur',
  'role.finance': 'Finance',
  'keys.title': 'Clés d’API',
  'keys.none': 'Aucune clé pour l’instant.',
  'keys.name': 'Nom',
  'keys.prefix': 'Clé',
  'keys.scopes': 'Droits',
  'keys.createdBy': 'Créée par',
  'keys.createdAt': 'Créée le',
  'keys.lastUsed': 'Dernier usage',
  'keys.never': 'jamais',
  'keys.revoked': 'révoquée',
  'keys.revoke': 'Révoquer',
  'keys.new': 'Nouvelle clé',
  'keys.create': 'Créer la clé',
  'keys.stepUp': 'Votre mot de passe (redemandé toutes les 10 minutes pour les clés)',
  'keys.created': 'Votre nouvelle clé',
  'keys.createdWarning':
    'Copiez-la maintenant : elle n’est affichée qu’une fois. Nous n’en gardons qu’une empreinte.',
  'keys.back': 'Retour aux clés',
  'keys.revokeTitle': 'Révoquer cette clé ?',
  'keys.revokeWarning': 'Les requêtes qui l’utilisent seront refusées sous 5 secondes. C’est définitif.',
  'keys.revokeConfirm': 'Oui, la révoquer',
  'keys.cancel': 'Annuler',
  'keys.audit': 'Historique des clés',
  'keys.action.created': 'créée',
  'keys.action.revoked': 'révoquée',
  'scope.orders:read': 'lire et suivre les commandes',
  'scope.orders:write': 'créer, modifier et annuler des commandes',
  'scope.invoices:read': 'lire les factures et avoirs',
  'error.title': 'Un problème est survenu',
  'error.403': 'Votre rôle ne donne pas accès à cette page.',
  'error.404': 'Cette page n’existe pas.',
  'error.csrf': 'Le formulaire a expiré. Revenez en arrière, rechargez la page et réessayez.',
  'error.429': 'Trop de tentatives : patientez quelques minutes puis réessayez.',
  'error.500': 'Une erreur inattendue est survenue. Réessayez dans un instant.',
  'error.back': 'Retour à votre compte',
  'mail.verify.subject': 'Confirmez votre adresse e-mail',
  'mail.verify.body': 'Bienvenue ! Ouvrez ce lien dans les 24 heures pour confirmer votre adresse e-mail :',
  'mail.reset.subject': 'Réinitialisez votre mot de passe',
  'mail.reset.body':
    'Ouvrez ce lien dans l’heure pour choisir un nouveau mot de passe. Si vous n’avez rien demandé, ignorez ce message :',
  'mail.invite.subject': 'Invitation à votre espace de livraison',
  'mail.invite.body':
    'Vous êtes invité(e) dans l’espace de livraison de votre société. Ouvrez ce lien dans les 7 jours pour choisir votre mot de passe :',
  'invite.title': 'Choisir votre mot de passe',
  'invite.done': 'Votre mot de passe est enregistré. Vous pouvez vous connecter.',
  'mail.exists.subject': 'Vous avez déjà un compte',
  'mail.exists.body':
    'Quelqu’un (vous ?) a voulu créer un compte avec cette adresse, qui en a déjà un. Connectez-vous, ou réinitialisez votre mot de passe depuis la page de connexion :',
  // Rotation des clés et équipe
  'keys.roll': 'Renouveler',
  'keys.rollTitle': 'Renouveler cette clé ?',
  'keys.rollIntro':
    'Une nouvelle clé avec les mêmes droits remplace celle-ci. Déployez la nouvelle clé, puis laissez l’ancienne s’arrêter.',
  'keys.rollGrace': 'L’ancienne clé reste valable',
  'keys.grace.now': 'plus du tout : elle s’arrête maintenant',
  'keys.grace.1h': 'pendant 1 heure',
  'keys.grace.24h': 'pendant 24 heures',
  'keys.grace.7d': 'pendant 7 jours',
  'keys.rollConfirm': 'Renouveler la clé',
  'keys.expiresAt': 'valable jusqu’au {at}',
  'keys.expired': 'expirée',
  'keys.action.rolled': 'renouvelée',
  'nav.team': 'Équipe',
  'team.title': 'Équipe',
  'team.email': 'E-mail',
  'team.role': 'Rôle',
  'team.verified': 'Confirmé',
  'team.created': 'Ajouté le',
  'team.yes': 'oui',
  'team.no': 'pas encore',
  'team.you': '(vous)',
  'team.change': 'Modifier',
  'team.remove': 'Retirer',
  'team.invite': 'Inviter quelqu’un',
  'team.inviteSubmit': 'Envoyer l’invitation',
  'team.invited': 'Invitation envoyée : le lien est valable 7 jours.',
  'team.changed': 'Rôle modifié.',
  'team.removed': 'La personne a été retirée : ses sessions ont pris fin.',
  'team.removeTitle': 'Retirer cette personne ?',
  'team.removeWarning':
    '{email} perdra l’accès au compte immédiatement (ses sessions prennent fin). Les clés créées restent valables.',
  'team.removeConfirm': 'Oui, retirer',
  'team.cancel': 'Annuler',
  'team.lastOwner': 'La marque doit garder au moins un propriétaire.',
  'team.notYourself': 'Vous ne pouvez ni vous retirer ni changer votre propre rôle.',
  'team.taken': 'Cette adresse e-mail a déjà un compte.',
};

const CATALOGUE: Record<Locale, Record<MessageKey, string>> = { en: EN, fr: FR };

// The domain's field messages (English, shared with the API and the CLI) as the pages show them in French.
const FIELD_MESSAGES_FR: Record<string, string> = {
  'must be 12 to 128 characters': 'doit compter de 12 à 128 caractères',
  'is too common': 'est trop courant',
  'must not contain your e-mail address': 'ne doit pas contenir votre adresse e-mail',
  'is not a valid e-mail address': 'n’est pas une adresse e-mail valide',
  'must be 1 to 200 characters': 'doit compter de 1 à 200 caractères',
  'must be 1 to 100 characters': 'doit compter de 1 à 100 caractères',
};

/** "Field: problem" for a form, in the page's language (the domain's text when it has no translation). */
export function fieldError(locale: Locale, label: string, message: string): string {
  const text = locale === 'fr' ? (FIELD_MESSAGES_FR[message] ?? message) : message;
  return locale === 'fr' ? `${label} : ${text}` : `${label}: ${text}`;
}

export type Translate = (key: MessageKey | string, values?: Record<string, string>) => string;

export function translate(locale: Locale): Translate {
  const words = CATALOGUE[locale] ?? EN;
  return (key, values = {}) =>
    (words[key as MessageKey] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

export const isLocale = (value: unknown): value is Locale => LOCALES.includes(value as Locale);

/** The first of the Accept-Language tags we speak (weights respected), else English. */
export function negotiateLocale(acceptLanguage: string | undefined): Locale {
  const tags = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { lang: tag!.trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((t) => t.q > 0)
    .sort((a, b) => b.q - a.q);
  return (tags.find((t) => isLocale(t.lang))?.lang as Locale | undefined) ?? 'en';
}
