import { randomBytes } from 'node:crypto';

// Crockford base32: digits and capitals without I, L, O, U (no confusable characters).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const TRACKING_REF_PATTERN = /^DLV-[0-9A-HJKMNP-TV-Z]{10}$/;

// CSPRNG bytes drawn 4 KiB at a time: one system call per ~400 references instead of one each.
let pool = Buffer.alloc(0);
let offset = 0;

/** `DLV-` + 10 random Crockford characters: 50 bits from the CSPRNG (256 is a multiple of 32: no bias). */
export function generateTrackingRef(): string {
  if (offset + 10 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  let ref = 'DLV-';
  for (let i = offset; i < offset + 10; i++) ref += ALPHABET[pool[i]! & 31];
  // Each byte is used once: references stay independent draws.
  offset += 10;
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
export const generateTrackingToken = (): string => randomBytes(16).toString('base64url');

/** What a tracking token looks like (16 bytes from the service, 32 from the migration's backfill). */
export const TRACKING_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;
