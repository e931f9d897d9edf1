import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** How long a code can be entered (SPEC §10). */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong tries a code survives: the 5th wrong one burns it. */
export const CODE_TRIES = 5;
/** Codes one order may be sent per day (Paris), whatever the channel. */
export const CODES_PER_DAY = 5;

/** Six digits, uniformly drawn: leading zeros kept, so every code is typed the same way. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * What the database keeps of a code: an HMAC keyed by a server secret, bound to the code's row,
 * so the table alone (a backup, a leaked dump) does not give a code back even by trying all 10⁶.
 */
export function codeDigest(key: Buffer, codeId: string, code: string): Buffer {
  return createHmac('sha256', key).update(`${codeId}:${code}`).digest();
}

export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a recipient typed, as a code: digits only (spaces and dashes a phone keyboard adds are dropped). */
export function typedCode(input: string): string | null {
  const digits = input.replace(/[\s.-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}
