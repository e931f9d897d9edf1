import { createHmac } from 'node:crypto';

/** Webhooks and carrier-service requests: base64 HMAC-SHA256 of the raw body, keyed with the app secret. */
export function bodyHmac(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

/**
 * OAuth redirects: hex HMAC-SHA256 of the other query parameters, sorted by name and joined as a
 * form-encoded query string (`code=…&host=…&shop=…&state=…&timestamp=…`). Values are form-encoded
 * as Shopify's own library encodes them when it recomputes the digest.
 */
export function queryHmac(secret: string, params: Record<string, string>): string {
  const message = new URLSearchParams(
    Object.entries(params)
      .filter(([key]) => key !== 'hmac' && key !== 'signature')
      .sort(([a], [b]) => a.localeCompare(b)),
  ).toString();
  return createHmac('sha256', secret).update(message, 'utf8').digest('hex');
}
