/**
 * Real-world-ish values for the fuzz harness, so that schema-valid requests reach pricing, storage
 * and state changes instead of stopping at "invalid address" or "not found".
 */
import fc from 'fast-check';
import { EVENT_TYPES } from '../../../src/events/catalogue.ts';
import { NASTY_STRINGS } from './json-schema.ts';

export const IDF_ADDRESSES = [
  '10 rue de Rivoli 75004 Paris',
  '12 rue Oberkampf 75011 Paris',
  '5 rue du Dépôt 93200 Saint-Denis',
  '3 avenue de Paris 94300 Vincennes',
  "1 place d'Armes 78000 Versailles",
  '8 boulevard de la Liberté 77100 Meaux',
  '20 rue de la Gare 91300 Massy',
  '15 rue Pasteur 95100 Argenteuil',
  '2 place de la Défense 92400 Courbevoie',
  '44 rue de la Roquette, 75011 PARIS',
  'Bâtiment B, 7 allée des Tilleuls 92100 Boulogne-Billancourt',
  '18 rue Lecourbe 75015 Paris 15e',
];

const OTHER_ADDRESSES = [
  '1 place Bellecour 69002 Lyon',
  '10 La Canebière 13001 Marseille',
  '3 rue Sainte-Catherine 33000 Bordeaux',
  '12 rue Nulle Part 00000 Nowhere',
  '7 avenue Fictive 99999 Ville',
  'no postcode at all',
  '75004',
  '10 rue de Rivoli 7500 Paris',
  '10 rue de Rivoli 750040 Paris',
  '１０ rue de Rivoli ７５００４ Paris',
  'CEDEX 08 75008',
];

const IDF_POSTCODES = [
  '75001',
  '75004',
  '75011',
  '75020',
  '75116',
  '77100',
  '78000',
  '91300',
  '92100',
  '93200',
  '94300',
  '95100',
];
const STREETS = [
  'rue de la Paix',
  'avenue Foch',
  'boulevard Voltaire',
  'impasse des Lilas',
  'quai de Valmy',
  'place du Marché',
];
const CITIES = [
  'Paris',
  'Saint-Denis',
  'Vincennes',
  'Versailles',
  'Meaux',
  'Massy',
  'Argenteuil',
  'Boulogne',
];

const generatedAddress = fc
  .tuple(
    fc.integer({ min: 1, max: 250 }),
    fc.constantFrom(...STREETS),
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...IDF_POSTCODES) },
      { weight: 1, arbitrary: fc.stringMatching(/^\d{5}$/) },
    ),
    fc.constantFrom(...CITIES),
  )
  .map(([n, street, postcode, city]) => `${n} ${street} ${postcode} ${city}`);

const address = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...IDF_ADDRESSES) },
  { weight: 3, arbitrary: generatedAddress },
  { weight: 1, arbitrary: fc.constantFrom(...OTHER_ADDRESSES) },
);

const zip = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...IDF_POSTCODES) },
  { weight: 1, arbitrary: fc.constantFrom('69002', '13001', '00000', '2A004', ' 75004 ', '7500', '750040') },
  { weight: 1, arbitrary: fc.stringMatching(/^\d{5}$/) },
);

const email = fc.oneof(
  fc.constantFrom('jane@example.com', 'Jean.Dupont@Orange.FR', 'contact+fuzz@boutique.fr'),
  fc.emailAddress(),
);

const phone = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '06 12 34 56 78',
      '+33 6 12 34 56 78',
      '0612345678',
      '01 42 68 53 00',
      '+44 20 7946 0958',
      '06-12-34-56-78',
    ),
  },
  { weight: 3, arbitrary: fc.stringMatching(/^0[67]\d{8}$/).map((n) => n.replace(/(\d\d)(?=\d)/g, '$1 ')) },
  { weight: 1, arbitrary: fc.constantFrom('12', '+33', 'call me', '+1 202 555 0143', '') },
  { weight: 1, arbitrary: fc.stringMatching(/^\+?[0-9 ]{2,20}$/) },
);

const unitType = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'parcel',
      'envelope',
      'bulky',
      'pallet',
      'colis',
      'pli',
      'encombrant',
      'palette',
      'Colis',
      ' PALLET ',
    ),
  },
  { weight: 2, arbitrary: fc.mixedCase(fc.constantFrom('parcel', 'colis', 'enveloppe')) },
  { weight: 1, arbitrary: fc.constantFrom('crate', '', 'parcels') },
);

const unitWeight = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('1kg', '2.5kg', '2,5 kg', '500g', '500 g', '0.07', '2 KG', '.5', '30 kg'),
  },
  { weight: 2, arbitrary: fc.double({ min: 0.001, max: 2000, noNaN: true }) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 30_000 }).map((g) => `${g} g`) },
  { weight: 1, arbitrary: fc.constantFrom('2000kg', '2001 kg', '0', '-1', 'heavy', '1e3', 1e21, 5e-324) },
);

const amount = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 0, max: 10_000_000 }).map((cents) => cents / 100) },
  { weight: 1, arbitrary: fc.constantFrom(0, 49.9, 100000000, 100000000.01, 0.001, 1e21, null) },
);

/** Free text the API stores and sends back: any character at all, and the ones known to hurt. */
const freeText = (maxLength: number, examples: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...examples) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  );

const reference = fc.oneof(
  fc.integer({ min: 1, max: 99999 }).map((n) => `CMD-${n}`),
  freeText(100, ['CMD-10042', 'A/B#1']),
);
const recipient = freeText(200, ['Jane Doe', 'Élodie Lefèvre', 'M. 王', "O'Brien"]);

/** By property name, for every request body of the public API. */
/** Public address literals (no DNS in the SSRF guard), and a few that it refuses. */
const webhookUrl = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'https://93.184.216.34/hooks/dlv',
      'https://[2606:4700::6810:84e5]/n8n/webhook/abc',
      'https://8.8.8.8/zapier?x=1',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'https://127.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'http://93.184.216.34/',
      'https://user:pw@93.184.216.34/',
    ),
  },
);

export const bodyHints: Record<string, fc.Arbitrary<unknown>> = {
  url: webhookUrl,
  event_types: fc.subarray([...EVENT_TYPES], { minLength: 1 }),
  delivery_address: address,
  pickup_address: fc.oneof(
    { weight: 3, arbitrary: address },
    { weight: 1, arbitrary: freeText(500, ['Entrepôt Nord']) },
  ),
  delivery_zip: zip,
  customer_email: email,
  delivery_email: email,
  delivery_phone: phone,
  delivery_recipient: recipient,
  unit_type: unitType,
  unit_weight: unitWeight,
  quantity: fc.integer({ min: 1, max: 20 }),
  amount_eur: amount,
  reference,
  // A brand's point (both or neither): inside Île-de-France mostly, so valid requests can succeed;
  // now and then one outside it or null (a 400, or the point forgotten).
  delivery_lat: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 48_750_000, max: 48_950_000 }).map((n) => n / 1e6) },
    { weight: 1, arbitrary: fc.constantFrom(null, 43.296482, 90) },
  ),
  delivery_lng: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 2_250_000, max: 2_450_000 }).map((n) => n / 1e6) },
    { weight: 1, arbitrary: fc.constantFrom(null, 5.36978, -180) },
  ),
};

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const trackingRefLike = fc.oneof(
  fc.array(fc.constantFrom(...CROCKFORD), { minLength: 10, maxLength: 10 }).map((c) => `DLV-${c.join('')}`),
  fc.constantFrom('DLV-0000000000', 'dlv-7k3m9q2xhp', 'DLV-ILOU000000', 'DLV-', 'DLV-7K3M9Q2XHP '),
);

/** `prefix_` + 16 hex, random, or one of a few near misses. */
const prefixedIdLike = (prefix: string, nearMisses: string[]) =>
  fc.oneof(
    fc
      .array(fc.constantFrom(...'0123456789abcdef'), { minLength: 16, maxLength: 16 })
      .map((c) => `${prefix}_${c.join('')}`),
    fc.constantFrom(...nearMisses),
  );

export const invoiceIdLike = prefixedIdLike('inv', [
  'inv_0000000000000000',
  'INV_0000000000000000',
  'F2026-000001',
  'inv_',
]);

export const subscriptionIdLike = prefixedIdLike('whk', [
  'whk_0000000000000000',
  'WHK_0000000000000000',
  'wh_0000000000000000',
  'whk_',
]);

/** A few keys reused on purpose (replays and "same key, other body"), and fresh ones. */
export const idempotencyKey = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3') },
  { weight: 4, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 255 }) },
);
