/**
 * A postal address as an e-invoice carries it (EN 16931 BG-5 / BG-8 / BG-15): street lines, postcode,
 * city and country, read from the free text people type (the company page's billing address, the
 * SELLER_ADDRESS lines, a pickup address on one line). French addresses only: the line (or the end
 * of the one line) "75010 Paris" gives the postcode and the city; a last line "France" is the
 * country's name, not a street.
 */
export interface PostalAddress {
  /** At most three (CII LineOne…LineThree); more are joined into the third. */
  lines: string[];
  postcode: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: 'FR';
}

const POSTCODE_CITY = /^(\d{5})\s+(\S.*)$/;
const TRAILING_POSTCODE_CITY = /^(.*?)[,\s]+(\d{5})\s+([^\d,][^,]*)$/;
const COUNTRY_LINE = /^france$/i;

/** Null when no line reads "postcode city" (the company page says so: `billing_address.postcode`). */
export function parsePostalAddress(text: string): PostalAddress | null {
  const lines = text
    .split(/\r?\n|\|/)
    .map((line) => line.trim().replace(/,$/, '').trim())
    .filter((line) => line !== '');
  while (lines.length > 0 && COUNTRY_LINE.test(lines[lines.length - 1]!)) lines.pop();
  for (let i = lines.length - 1; i >= 0; i--) {
    const whole = POSTCODE_CITY.exec(lines[i]!);
    if (whole) return address(lines.slice(0, i), whole[1]!, whole[2]!);
    const trailing = TRAILING_POSTCODE_CITY.exec(lines[i]!);
    if (trailing) return address([...lines.slice(0, i), trailing[1]!], trailing[2]!, trailing[3]!);
  }
  return null;
}

function address(street: string[], postcode: string, city: string): PostalAddress {
  const lines = street.map((line) => line.trim()).filter((line) => line !== '');
  const kept = lines.length > 3 ? [lines[0]!, lines[1]!, lines.slice(2).join(', ')] : lines;
  return { lines: kept, postcode, city: city.trim(), country: 'FR' };
}

/** Same place, whatever the spacing, case and commas: the deliver-to address is given only when it differs. */
export function samePlace(a: PostalAddress, b: PostalAddress): boolean {
  const key = (p: PostalAddress) =>
    [...p.lines, p.postcode, p.city, p.country]
      .join(' ')
      .toLowerCase()
      .replace(/[\s,]+/g, ' ')
      .trim();
  return key(a) === key(b);
}
