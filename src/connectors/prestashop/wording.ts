import { type ConnectorWording, sideBySide } from '../../i18n/words.ts';

/**
 * The Shops page's words for PrestaShop shops (one table per language, joined side by side below). `shops.prestashop.*` keys that share a suffix with a `shops.*` one replace it
 * on a PrestaShop link's pages (see platformText in views/shops-page.ts).
 */
const PRESTASHOP_EN = {
  'shops.platform.prestashop': 'PrestaShop',
  'shops.prestashop.connect': 'Connect a PrestaShop shop',
  'shops.prestashop.intro':
    'Install our dlvshipping module in the shop first (your account manager sends you its zip), then connect the shop here: you get what to paste in the module’s settings.',
  'shops.prestashop.urlField': 'Shop address',
  'shops.prestashop.urlHint':
    'Its public https address, as your customers open it (with the sub-folder if the shop lives in one).',
  'shops.prestashop.keyField': 'Webservice key (optional)',
  'shops.prestashop.keyHint':
    'Advanced Parameters › Webservice: a key with GET on orders, addresses, customers, countries, currencies, products, carriers, order_states, configurations and order_carriers, PUT on order_carriers and POST on order_histories. With it we also check the shop every 5 minutes for orders a push missed, and write tracking numbers and deliveries back. Without it, orders arrive by the module’s pushes only.',
  'shops.prestashop.submit': 'Connect the shop',
  'shops.prestashop.linkedTitle': '{shop} is connected',
  'shops.prestashop.once':
    'Copy the shop secret now: it is shown only on this page. Lost, it can be replaced by a new one from the Shops page.',
  'shops.prestashop.steps': 'Then, in the shop’s back office',
  'shops.prestashop.step.upload':
    'Modules › Module Manager › Upload a module: the dlvshipping zip (your account manager sends it; it is built with npm run package:connectors).',
  'shops.prestashop.step.configure': 'Livraison DLV › Configure, and fill in:',
  'shops.prestashop.step.save':
    'Save. The carriers Livraison DLV Express, Standard and Economy appear under Shipping › Carriers, priced by us; paid orders reach us as they are paid.',
  'shops.prestashop.field.apiKey': 'API key',
  'shops.prestashop.field.apiKeyValue':
    'a key of your company. Prices need no particular scope: create one for the shop alone (orders:read is enough), so it can be revoked without touching your other tools. →',
  'shops.prestashop.field.baseUrl': 'API base URL',
  'shops.prestashop.field.connectionId': 'Connection id',
  'shops.prestashop.field.secret': 'Shop secret',
  'shops.prestashop.pollOnLinked':
    'With the Webservice key: the shop is also checked every 5 minutes, and tracking numbers and deliveries are written back.',
  'shops.prestashop.pollOffLinked':
    'Without a Webservice key: orders arrive by the module’s pushes only, and nothing is written back. You can add a key on the Shops page at any time.',
  'shops.prestashop.poll': 'Webservice poll',
  'shops.prestashop.poll.on': 'On',
  'shops.prestashop.poll.off': 'Off (no Webservice key)',
  'shops.prestashop.lastPoll': 'Last poll',
  'shops.prestashop.polledThrough': 'Orders read up to',
  'shops.prestashop.shopTime': '(the shop’s time)',
  'shops.prestashop.lastPush': 'Last push received',
  'shops.prestashop.keyTitle': 'Webservice key',
  'shops.prestashop.newKeyField': 'New Webservice key',
  'shops.prestashop.keyReplaceHint':
    'Tried on the shop before it is saved; it replaces the current one, and turns the poll and statuses back on.',
  'shops.prestashop.keySave': 'Save the key',
  'shops.prestashop.rotate': 'New shop secret',
  'shops.prestashop.rotateTitle': 'A new shop secret for {shop}?',
  'shops.prestashop.rotateWarning':
    'The current secret stops working at once: the module’s pushes are refused until you paste the new secret in its settings (the module keeps them and sends them again; with a Webservice key the poll also finds the orders).',
  'shops.prestashop.rotateConfirm': 'Yes, make a new secret',
  'shops.prestashop.rotatedTitle': 'New shop secret for {shop}',
  'shops.prestashop.rotatedText':
    'The old secret no longer works. Paste this one in the module (Livraison DLV › Configure › Shop secret): it is shown only now.',
  'shops.prestashop.alreadyShown':
    'This shop secret has already been shown, and is not shown again. If you did not copy it, make a new one from the Shops page (New shop secret).',
  'shops.prestashop.notify.yes':
    'Yes: PrestaShop e-mails the customer when the order reaches its delivered state (as that state’s settings say)',
  'shops.prestashop.health.broken':
    'The shop refused the Webservice key: nothing is polled or written back (the module’s pushes still arrive). Give a new key below.',
  'shops.prestashop.disconnectWarning':
    'Its new orders will no longer reach us (the module’s pushes are refused, the shop is no longer polled) and tracking is no longer written back. Delivery orders already created carry on. Its secret and Webservice key are erased.',
  'shops.prestashop.remote.none':
    'Nothing of ours was registered in the shop. Uninstall the dlvshipping module in the back office (Modules › Module Manager) so its carriers leave the checkout.',
} as const;

const PRESTASHOP_FR: Record<keyof typeof PRESTASHOP_EN, string> = {
  'shops.platform.prestashop': 'PrestaShop',
  'shops.prestashop.connect': 'Connecter une boutique PrestaShop',
  'shops.prestashop.intro':
    'Installez d’abord notre module dlvshipping dans la boutique (votre chargé de compte vous envoie son zip), puis connectez la boutique ici : vous obtenez ce qu’il faut coller dans les réglages du module.',
  'shops.prestashop.urlField': 'Adresse de la boutique',
  'shops.prestashop.urlHint':
    'Son adresse https publique, telle que vos clients l’ouvrent (avec le sous-dossier si la boutique est dans un sous-dossier).',
  'shops.prestashop.keyField': 'Clé Webservice (facultative)',
  'shops.prestashop.keyHint':
    'Paramètres avancés › Webservice : une clé avec GET sur orders, addresses, customers, countries, currencies, products, carriers, order_states, configurations et order_carriers, PUT sur order_carriers et POST sur order_histories. Avec elle, nous vérifions aussi la boutique toutes les 5 minutes pour les commandes qu’un envoi aurait manquées, et y écrivons les numéros de suivi et les livraisons. Sans elle, les commandes n’arrivent que par les envois du module.',
  'shops.prestashop.submit': 'Connecter la boutique',
  'shops.prestashop.linkedTitle': '{shop} est connectée',
  'shops.prestashop.once':
    'Copiez le secret de la boutique maintenant : il n’est affiché que sur cette page. Perdu, il se remplace par un nouveau depuis la page Boutiques.',
  'shops.prestashop.steps': 'Ensuite, dans l’administration de la boutique',
  'shops.prestashop.step.upload':
    'Modules › Gestionnaire de modules › Installer un module : le zip dlvshipping (votre chargé de compte vous l’envoie ; il est construit par npm run package:connectors).',
  'shops.prestashop.step.configure': 'Livraison DLV › Configurer, et remplissez :',
  'shops.prestashop.step.save':
    'Enregistrez. Les transporteurs Livraison DLV Express, Standard et Economy apparaissent dans Livraison › Transporteurs, à nos tarifs ; les commandes payées nous parviennent dès leur paiement.',
  'shops.prestashop.field.apiKey': 'API key',
  'shops.prestashop.field.apiKeyValue':
    'une clé de votre société. Les tarifs ne demandent aucun droit particulier : créez-en une pour la boutique seule (orders:read suffit), révocable sans toucher à vos autres outils. →',
  'shops.prestashop.field.baseUrl': 'API base URL',
  'shops.prestashop.field.connectionId': 'Connection id',
  'shops.prestashop.field.secret': 'Shop secret',
  'shops.prestashop.pollOnLinked':
    'Avec la clé Webservice : la boutique est aussi vérifiée toutes les 5 minutes, et les numéros de suivi et les livraisons y sont écrits.',
  'shops.prestashop.pollOffLinked':
    'Sans clé Webservice : les commandes n’arrivent que par les envois du module, et rien n’est écrit dans la boutique. Vous pouvez ajouter une clé depuis la page Boutiques à tout moment.',
  'shops.prestashop.poll': 'Lecture par le Webservice',
  'shops.prestashop.poll.on': 'Active',
  'shops.prestashop.poll.off': 'Inactive (pas de clé Webservice)',
  'shops.prestashop.lastPoll': 'Dernière lecture',
  'shops.prestashop.polledThrough': 'Commandes lues jusqu’au',
  'shops.prestashop.shopTime': '(heure de la boutique)',
  'shops.prestashop.lastPush': 'Dernier envoi reçu du module',
  'shops.prestashop.keyTitle': 'Clé Webservice',
  'shops.prestashop.newKeyField': 'Nouvelle clé Webservice',
  'shops.prestashop.keyReplaceHint':
    'Essayée sur la boutique avant d’être enregistrée ; elle remplace l’actuelle et active la lecture et le retour des statuts.',
  'shops.prestashop.keySave': 'Enregistrer la clé',
  'shops.prestashop.rotate': 'Nouveau secret de boutique',
  'shops.prestashop.rotateTitle': 'Un nouveau secret pour {shop} ?',
  'shops.prestashop.rotateWarning':
    'Le secret actuel cesse de fonctionner immédiatement : les envois du module sont refusés jusqu’à ce que vous colliez le nouveau secret dans ses réglages (le module les garde et les renvoie ; avec une clé Webservice, la lecture retrouve aussi les commandes).',
  'shops.prestashop.rotateConfirm': 'Oui, créer un nouveau secret',
  'shops.prestashop.rotatedTitle': 'Nouveau secret pour {shop}',
  'shops.prestashop.rotatedText':
    'L’ancien secret ne fonctionne plus. Collez celui-ci dans le module (Livraison DLV › Configurer › Shop secret) : il n’est affiché que maintenant.',
  'shops.prestashop.alreadyShown':
    'Ce secret de boutique a déjà été affiché et ne l’est plus. Si vous ne l’avez pas copié, créez-en un nouveau depuis la page Boutiques (Nouveau secret de boutique).',
  'shops.prestashop.notify.yes':
    'Oui : PrestaShop envoie un e-mail au client quand la commande passe à l’état livré (selon les réglages de cet état)',
  'shops.prestashop.health.broken':
    'La boutique a refusé la clé Webservice : rien n’est lu ni écrit dans la boutique (les envois du module arrivent toujours). Donnez une nouvelle clé ci-dessous.',
  'shops.prestashop.disconnectWarning':
    'Ses nouvelles commandes ne nous parviendront plus (les envois du module sont refusés, la boutique n’est plus lue) et le suivi n’y est plus écrit. Les ordres de livraison déjà créés continuent. Son secret et sa clé Webservice sont effacés.',
  'shops.prestashop.remote.none':
    'Rien de chez nous n’était enregistré dans la boutique. Désinstallez le module dlvshipping dans l’administration (Modules › Gestionnaire de modules) pour que ses transporteurs quittent la page de commande.',
};

/** The PrestaShop bridge's field messages (English, as the CLI prints them) in French. */
const PRESTASHOP_FIELD_MESSAGES_FR: Record<string, string> = {
  'is required': 'est obligatoire',
  'must not have a query or fragment': 'ne doit avoir ni paramètres (?…) ni ancre (#…)',
  'must be the 32-character Webservice key (letters and digits)':
    'doit être la clé Webservice de 32 caractères (lettres et chiffres)',
  'The shop refused the Webservice key (not active or mistyped).':
    'la boutique a refusé la clé Webservice (inactive ou mal recopiée).',
};

/** Those that carry a value (src/i18n/form-errors.ts). */
const PRESTASHOP_FR_PATTERNS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [
    /^(.*) is not an allowed address; the shop must be reachable at a public address$/,
    (m) => `n’est pas une adresse publique (${m[1]}) : la boutique doit être joignable depuis internet`,
  ],
  [
    /^The shop (\S+) is already linked; disconnect it first\.$/,
    (m) => `la boutique ${m[1]} est déjà connectée ; déconnectez-la d’abord.`,
  ],
  [
    /^could not be reached; try again later \((.*)\)$/,
    (m) => `la boutique est injoignable ; réessayez plus tard (${m[1]})`,
  ],
  [
    /^The Webservice key lacks permissions \((.*)\)\. The key needs: .*$/,
    (m) =>
      `il manque des droits à la clé Webservice (${m[1]}) : la clé doit avoir les droits indiqués sous le champ.`,
  ],
  [
    /^The shop refused a Webservice call \((.*)\)\. The key needs: .*$/,
    (m) =>
      `la boutique a refusé un appel Webservice (${m[1]}) : la clé doit avoir les droits indiqués sous le champ.`,
  ],
];

/** PrestaShop's words in the account area and its field messages in French. */
export const PRESTASHOP_WORDING = {
  account: sideBySide(PRESTASHOP_EN, PRESTASHOP_FR),
  fieldMessagesFr: PRESTASHOP_FIELD_MESSAGES_FR,
  frPatterns: PRESTASHOP_FR_PATTERNS,
} satisfies ConnectorWording;
