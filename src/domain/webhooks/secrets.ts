import { randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
/** 32 bytes: the HMAC-SHA256 block-size-safe length Standard Webhooks recommends (24–64). */
const SECRET_BYTES = 32;

/** A new endpoint secret in the Standard Webhooks format, so receivers can use any SW library. */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * Whether a string is a secret we would issue. Checked before storing an operator-supplied
 * secret, because a malformed one would only fail later, at signing time inside a job.
 */
export function isWebhookSecret(value: string): boolean {
  if (!value.startsWith(PREFIX)) return false;
  const encoded = value.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}
