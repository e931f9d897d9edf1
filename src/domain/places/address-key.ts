/**
 * The key an address is cached and learned under (address_points): the same for the ways people
 * write one address — case, accents, punctuation, spaces, the usual abbreviations of street types
 * ("bd", "av", "st") — and different as soon as a word or a number differs. Never shown.
 */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['av', 'avenue'],
  ['ave', 'avenue'],
  ['bd', 'boulevard'],
  ['bld', 'boulevard'],
  ['blvd', 'boulevard'],
  ['boul', 'boulevard'],
  ['ch', 'chemin'],
  ['chem', 'chemin'],
  ['fbg', 'faubourg'],
  ['fg', 'faubourg'],
  ['imp', 'impasse'],
  ['pl', 'place'],
  ['pte', 'porte'],
  ['qu', 'quai'],
  ['r', 'rue'],
  ['rte', 'route'],
  ['sq', 'square'],
  ['st', 'saint'],
  ['ste', 'sainte'],
]);

/** At most this long (the column's bound): an address is at most 500 characters as typed. */
const MAX_KEY_LENGTH = 600;
const NOT_ASCII = /[^ -~\t\n\r]/;
const SEPARATORS = /[^a-z0-9]+/;

/**
 * Computed for every order created (its address looked up among those already placed): the
 * Unicode folding only when the address has a character outside ASCII (NFKD costs more than the rest).
 */
export function addressKey(address: string): string {
  let text = address;
  if (NOT_ASCII.test(text))
    text = text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/œ/gi, 'oe')
      .replace(/æ/gi, 'ae');
  let key = '';
  for (const word of text.toLowerCase().split(SEPARATORS)) {
    if (word === '') continue;
    const full = ABBREVIATIONS.get(word) ?? word;
    key = key === '' ? full : `${key} ${full}`;
  }
  return key.slice(0, MAX_KEY_LENGTH);
}
