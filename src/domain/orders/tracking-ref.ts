import { randomBytes } from 'node:crypto';

// Crockford base32: digits and capitals without I, L, O, U (no confusable characters).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TRACKING_REF_PATTERN = /^DLV-[0-9A-HJKMNP-TV-Z]{10}$/;

// CSPRNG bytes drawn 4 KiB at a time: one call into the CSPRNG per ~150 orders instead of two each.
// Each byte is used once: references and tokens stay independent draws.
let pool = Buffer.alloc(0);
let offset = 0;

/** The offset of `n` unused random bytes in `pool`. */
function draw(n: number): number {
  if (offset + n > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += n;
  return offset - n;
}

/** `DLV-` + 10 random Crockford characters: 50 bits from the CSPRNG (256 is a multiple of 32: no bias). */
export function generateTrackingRef(): string {
  const from = draw(10);
  let ref = 'DLV-';
  for (let i = from; i < from + 10; i++) ref += ALPHABET[pool[i]! & 31];
  return ref;
}

/** Accepts the forms people type (lowercase, O for 0, I/L for 1); null when it cannot be a ref. */
export function normaliseTrackingRef(input: string): string | null {
  const upper = input.trim().toUpperCase();
  const match = /^DLV-?([0-9A-Z]{10})$/.exec(upper);
  if (!match) return null;
  const body = match[1]!.replace(/O/g, '0').replace(/[IL]/g, '1');
  const ref = `DLV-${body}`;
  return TRACKING_REF_PATTERN.test(ref) ? ref : null;
}

/** The tracking page's token: 128 random bits in base64url (22 characters), unrelated to the ref. */
export function generateTrackingToken(): string {
  const from = draw(16);
  return pool.toString('base64url', from, from + 16);
}

/** What a tracking token looks like (16 bytes from the service, 32 from the migration's backfill). */
export const TRACKING_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;
