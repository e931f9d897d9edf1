/**
 * The key an address is cached and learned under (address_points): the same for the ways people
 * write one address — case, accents, punctuation, spaces, the usual abbreviations of street types
 * ("bd", "av", "st") — and different as soon as a word or a number differs. Never shown.
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  av: 'avenue',
  ave: 'avenue',
  bd: 'boulevard',
  bld: 'boulevard',
  blvd: 'boulevard',
  boul: 'boulevard',
  ch: 'chemin',
  chem: 'chemin',
  fbg: 'faubourg',
  fg: 'faubourg',
  imp: 'impasse',
  pl: 'place',
  pte: 'porte',
  qu: 'quai',
  r: 'rue',
  rte: 'route',
  sq: 'square',
  st: 'saint',
  ste: 'sainte',
};

/** At most this long (the column's bound): an address is at most 500 characters as typed. */
const MAX_KEY_LENGTH = 600;

export function addressKey(address: string): string {
  const words = address
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((w) => ABBREVIATIONS[w] ?? w);
  return words.join(' ').slice(0, MAX_KEY_LENGTH);
}
