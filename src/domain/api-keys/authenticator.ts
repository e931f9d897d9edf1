import { AppError } from '../../errors.ts';
import { hashApiKey, KEY_PATTERN, type Scope } from './keys.ts';
import type { ApiKeyStore, KeyWithBrand } from './ports.ts';

/** Who an API key stands for: its brand, and the key itself with its scopes. */
export interface KeyIdentity {
  /**
   * `id` is the test twin's for a test key (`livemode` false): everything the key creates and
   * sees is the twin's; `name` and `defaultPickupAddress` are the live brand's.
   */
  brand: {
    id: string;
    name: string;
    createdAt: Date;
    defaultPickupAddress: string | null;
    livemode: boolean;
  };
  key: { id: string; prefix: string; scopes: Scope[]; createdAt: Date; lastUsedAt: Date | null };
}

export interface AuthenticatorOptions {
  /** How long a verified key is trusted without asking the database (< 5 s: revocation bound). */
  ttlMs: number;
  /** `last_used_at` is written at most this often per key, off the request path. */
  touchEveryMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface CacheEntry {
  principal: KeyIdentity;
  expiresAt: number;
}

export interface ApiKeyAuthenticator {
  /**
   * `token`: the bearer token presented (null when none). Throws 401 `unauthorized` for a missing,
   * malformed, unknown, revoked or expired key.
   */
  authenticate(presented: string | null): Promise<KeyIdentity>;
  /**
   * The same answer without waiting when this instance knows the key (nearly every request):
   * the key, a 401 thrown for a malformed one, or null when only the database can tell.
   */
  authenticateCached(presented: string | null): KeyIdentity | null;
  /** Drops a key from this instance's cache at once (other instances follow within ttlMs). */
  forget(keyId: string): void;
}

/**
 * Turns a bearer token into the brand and scopes it stands for. Verified keys are kept in memory
 * for `ttlMs` so that hot routes (rates) need no query per request; the bound keeps a revocation
 * made by any instance effective within 5 s. Unknown keys are never cached.
 */
export function apiKeyAuthenticator(keys: ApiKeyStore, options: AuthenticatorOptions): ApiKeyAuthenticator {
  const now = options.now ?? Date.now;
  const touchEveryMs = options.touchEveryMs ?? 60_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const cache = new Map<string, CacheEntry>();
  const lastTouched = new Map<string, number>();

  function toKeyIdentity(k: KeyWithBrand): KeyIdentity {
    return {
      brand: {
        id: k.brandId,
        name: k.brandName,
        createdAt: k.brandCreatedAt,
        defaultPickupAddress: k.brandDefaultPickupAddress,
        livemode: k.livemode,
      },
      key: { id: k.id, prefix: k.prefix, scopes: k.scopes, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt },
    };
  }

  function touch(principal: KeyIdentity): void {
    const at = now();
    if (at - (lastTouched.get(principal.key.id) ?? 0) < touchEveryMs) return;
    lastTouched.set(principal.key.id, at);
    if (lastTouched.size > maxEntries) lastTouched.clear();
    principal.key.lastUsedAt = new Date(at);
    keys.touch(principal.key.id, new Date(at)).catch(() => {
      lastTouched.delete(principal.key.id); // try again on the next request
    });
  }

  /** The key of a well-formed token this instance knows and has not seen expire; null otherwise. */
  function cached(token: string): KeyIdentity | null {
    const hit = cache.get(token);
    if (!hit || hit.expiresAt <= now()) return null;
    touch(hit.principal);
    return hit.principal;
  }

  return {
    async authenticate(presented: string | null): Promise<KeyIdentity> {
      const token = checkKeyFormat(presented);
      const known = cached(token);
      if (known) return known;
      cache.delete(token);
      const record = await keys.findActiveByHash(hashApiKey(token), new Date(now()));
      if (!record) throw new AppError('unauthorized', 'The API key is unknown or has been revoked.');
      const principal = toKeyIdentity(record);
      // A rolled key's entry must not outlive the key: its grace period ends at expiresAt.
      const until = Math.min(now() + options.ttlMs, record.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
      if (options.ttlMs > 0 && until > now()) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(token, { principal, expiresAt: until });
      }
      touch(principal);
      return principal;
    },
    // Only well-formed tokens are ever cached, so a hit needs no format check (a regex per request).
    authenticateCached: (presented: string | null): KeyIdentity | null =>
      (presented !== null && cached(presented)) || cached(checkKeyFormat(presented)),
    forget(keyId: string): void {
      for (const [token, entry] of cache) if (entry.principal.key.id === keyId) cache.delete(token);
    },
  };
}

function checkKeyFormat(token: string | null): string {
  if (token === null) {
    throw new AppError('unauthorized', 'Missing API key: send it as "Authorization: Bearer dlv_…".');
  }
  if (!KEY_PATTERN.test(token)) {
    throw new AppError(
      'unauthorized',
      'Malformed API key: expected "Authorization: Bearer dlv_" (or "dlv_test_") followed by 64 hex characters.',
    );
  }
  return token;
}
