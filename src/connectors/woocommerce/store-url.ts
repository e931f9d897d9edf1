import { type AppError, invalidField } from '../../errors.ts';
import type { DestinationGuard } from '../../infra/http/url-guard.ts';

/**
 * A WooCommerce store's address as the brand gives it (the plugin sends `home_url()`), reduced to
 * the one form we store and compare: scheme, lower-case host, port, and the WordPress sub-directory
 * if any, without a trailing slash, query or fragment (`https://boutique.example.fr/shop`).
 */
function normalizeStoreUrl(value: unknown, guard: DestinationGuard, field = 'url'): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidField(field, 'is required');
  let url: URL;
  try {
    url = guard.validate(value.trim());
  } catch (err) {
    throw renamed(err, field);
  }
  const path = url.pathname.replace(/\/+$/, '');
  const normalized = `${url.protocol}//${url.host.toLowerCase()}${path}`;
  if (normalized.length > 255) throw invalidField(field, 'must be at most 255 characters');
  return normalized;
}

/** The static checks, then the host resolves to public addresses only. */
export async function checkedStoreUrl(
  value: unknown,
  guard: DestinationGuard,
  field = 'url',
): Promise<string> {
  const store = normalizeStoreUrl(value, guard, field);
  try {
    await guard.assertPublic(new URL(store));
  } catch (err) {
    throw renamed(err, field);
  }
  return store;
}

/** The guard names the field `url`; the caller's may be `shop_url`. */
function renamed(err: unknown, field: string): unknown {
  const message = (err as AppError).details?.[0]?.message;
  return typeof message === 'string' ? invalidField(field, message) : err;
}
