import { createHash, randomInt } from 'node:crypto';

/** How many one-use recovery codes an enrolment gives (and a renewal replaces). */
export const RECOVERY_CODE_COUNT = 10;

/** An alphabet without look-alikes (0/O, 1/l/I): the codes are printed or written down, then typed. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 16;

/**
 * A recovery code: 16 characters (about 79 bits) in groups of four, `k7mq-2xhp-…`. That many bits
 * leave nothing to brute-force, so a SHA-256 digest is what is stored (like the API keys), and a
 * code given at sign-in is found by its digest.
 */
export function newRecoveryCode(): { code: string; hash: Buffer } {
  let raw = '';
  for (let i = 0; i < LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  const code = raw.match(/.{4}/g)!.join('-');
  return { code, hash: hashRecoveryCode(code) };
}

/** The digest of a code as typed: any case, with or without its dashes and spaces. */
export const hashRecoveryCode = (typed: string): Buffer =>
  createHash('sha256').update(normalise(typed)).digest();

const normalise = (typed: string) => typed.toLowerCase().replace(/[\s-]/g, '');

/** Whether what was typed has a recovery code's shape (else it is taken for a TOTP code). */
export const looksLikeRecoveryCode = (typed: string): boolean =>
  new RegExp(`^[${ALPHABET}]{${LENGTH}}$`).test(normalise(typed));
