import { createHash, randomBytes } from 'node:crypto';

/** A secret for a cookie or a link (32 random bytes, base64url) and the digest that is stored. */
export function newSecret(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecret(token) };
}

/** SHA-256 suffices: the secrets carry 256 random bits, there is nothing to brute-force. */
export const hashSecret = (token: string): Buffer => createHash('sha256').update(token).digest();

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
