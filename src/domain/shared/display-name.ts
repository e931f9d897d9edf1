import { fieldProblem } from '../../errors.ts';

/**
 * What a name shown in a mail header (a From display name, a subject) must not carry: line breaks
 * and other controls (C0, DEL, C1, the Unicode line and paragraph separators) could split a header
 * or hide text; `<`, `>` and `"` would let the name pass for an address, or end the quoted name, in
 * `"<name>" <address>`. A brand's name is its e-mails' default sender name, so both follow it.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const DISPLAY_NAME_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029<>"]/;

/** Refuses `name` (already trimmed) in `field` when it carries one of the characters above. */
export function checkDisplayName(field: string, name: string): void {
  if (DISPLAY_NAME_FORBIDDEN.test(name)) throw fieldProblem(field, 'displayName.characters');
}
