import { createHmac, timingSafeEqual } from 'node:crypto';

/** Compares two strings in constant time (after a length check, which leaks only the length). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A shop's signature header over the bytes received: base64 HMAC-SHA256 of the raw body with the
 * shared secret, as the platforms' webhooks carry it in a header of their own.
 */
export function isValidBodyHmac(rawBody: Buffer | null, header: unknown, secret: string): boolean {
  if (rawBody === null || typeof header !== 'string' || header === '') return false;
  return safeEqual(header, createHmac('sha256', secret).update(rawBody).digest('base64'));
}
