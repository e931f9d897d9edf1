import { createHmac } from 'node:crypto';
import { invalidField } from '../../errors.ts';
import { safeEqual } from '../signatures.ts';

/** Shopify's own rule for a shop's permanent domain: anything else is refused before any call. */
const SHOP_DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

export function isShopDomain(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 255 && SHOP_DOMAIN_PATTERN.test(value);
}

/** Lower-cased and trimmed, then checked: `Acme.myshopify.com` is the same shop. */
export function parseShopDomain(value: unknown, field = 'shop'): string {
  const shop = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (!isShopDomain(shop)) throw invalidField(field, 'must be a shop domain such as acme.myshopify.com');
  return shop;
}

/** The shop's admin origin from the operator's template (`https://{shop}` in production). */
export function adminOrigin(template: string, shop: string): string {
  return template.replaceAll('{shop}', shop);
}

/**
 * The OAuth callback's `hmac`: hex HMAC-SHA256 of the other query parameters, sorted by name and
 * joined as `k=v&k=v` (Shopify's documented verification of the redirect).
 */
export function isValidQueryHmac(query: Record<string, unknown>, secret: string): boolean {
  const given = query.hmac;
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const message = Object.keys(query)
    .filter((k) => k !== 'hmac' && k !== 'signature')
    .sort()
    .map((k) => `${k}=${String(query[k])}`)
    .join('&');
  return safeEqual(given.toLowerCase(), createHmac('sha256', secret).update(message).digest('hex'));
}
