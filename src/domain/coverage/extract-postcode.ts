/**
 * The postcode of a free-form French address is its LAST run of exactly five digits (SPEC §7):
 * it follows the street number ("12 rue X 75011 Paris"), and what may follow it ("CEDEX 08",
 * "16e") is never five digits. Runs of 4 or 6+ digits (a département typo, a phone number) are
 * skipped rather than cut into a postcode.
 *
 * NFKC folds full-width digits and odd spaces pasted from other software into plain ones.
 */
const DIGIT_RUNS = /\d+/g;

export function extractPostcode(address: string): string | null {
  const runs = address.normalize('NFKC').match(DIGIT_RUNS) ?? [];
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i];
    if (run !== undefined && run.length === 5) return run;
  }
  return null;
}
