import { lookupPostcode } from './postcodes.ts';

/**
 * The postcode of a free-form French address is its LAST run of exactly five digits (SPEC §7):
 * it follows the street number ("12 rue X 75011 Paris"), and what may follow it ("CEDEX 08",
 * "16e") is never five digits. Runs of 4 or 6+ digits (a département typo, a phone number) are
 * skipped rather than cut into a postcode.
 *
 * NFKC folds full-width digits and odd spaces pasted from other software into plain ones.
 */
const DIGIT_RUNS = /\d+/g;

/**
 * "75 011": two digits, one space, three digits, standing alone — neither preceded nor followed by
 * another group of digits (a phone number "06 12 345 678", or "3 75 011" after a house number,
 * stays ambiguous and is not guessed).
 */
const SPLIT_POSTCODES = /(?<!\d[ .,-]?)(\d{2}) (\d{3})(?![ .,-]?\d)/g;

export function extractPostcode(address: string): string | null {
  const text = address.normalize('NFKC');
  const runs = text.match(DIGIT_RUNS) ?? [];
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i];
    if (run !== undefined && run.length === 5) return run;
  }
  return splitPostcode(text);
}

/**
 * Only when no plain five-digit run is in the address, and only a real La Poste postcode once
 * joined: "12 345 avenue X" (a house number and a street number) is not read as 12345.
 */
function splitPostcode(text: string): string | null {
  const candidates = [...text.replace(/\s/g, ' ').matchAll(SPLIT_POSTCODES)];
  for (let i = candidates.length - 1; i >= 0; i--) {
    const postcode = `${candidates[i]![1]}${candidates[i]![2]}`;
    if (lookupPostcode(postcode)) return postcode;
  }
  return null;
}
