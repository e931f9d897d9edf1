import type { Scope } from '../../domain/api-keys/keys.ts';
import type {
  ApiKeyRecord,
  ApiKeyStore,
  KeyAction,
  KeyEvent,
  KeyWithBrand,
  ListedKey,
  NewApiKey,
} from '../../domain/api-keys/ports.ts';
import type { Queryable } from '../pool.ts';

interface KeyRow {
  id: string;
  brand_id: string;
  prefix: string;
  scopes: Scope[];
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  name: string | null;
  created_by_user_id: string | null;
  expires_at: Date | null;
}

const COLUMNS =
  'id, brand_id, prefix, scopes, created_at, revoked_at, last_used_at, name, created_by_user_id, expires_at';

const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  brandId: r.brand_id,
  prefix: r.prefix,
  scopes: r.scopes,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
  name: r.name,
  createdByUserId: r.created_by_user_id,
  expiresAt: r.expires_at,
});

/** A brand and its test twin: the keys page shows live and test keys together, marked. */
const WITH_TWIN = (param: string) =>
  `SELECT ${param}::text UNION ALL SELECT id FROM brands WHERE live_brand_id = ${param}`;

export function apiKeysRepository(db: Queryable): ApiKeyStore {
  return {
    async insert(key: NewApiKey) {
      const { rows } = await db.query<KeyRow>(
        `INSERT INTO api_keys (id, brand_id, key_hash, prefix, scopes, name, created_by_user_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [
          key.id,
          key.brandId,
          key.hash,
          key.prefix,
          key.scopes,
          key.name ?? null,
          key.createdByUserId ?? null,
        ],
      );
      return toKey(rows[0]!);
    },
    /** The key of `hash` if it works at `at`: not revoked, not past its expiry, its brand enabled. */
    async findActiveByHash(hash: Buffer, at: Date): Promise<KeyWithBrand | null> {
      const { rows } = await db.query<
        KeyRow & {
          brand_name: string;
          brand_created_at: Date;
          brand_default_pickup_address: string | null;
          livemode: boolean;
        }
      >(
        // A test key's brand is a test twin: its name, pickup address and standing are the live
        // brand's (a disabled brand's test keys stop too).
        `SELECT k.id, k.brand_id, k.prefix, k.scopes, k.created_at, k.revoked_at, k.last_used_at,
                k.name, k.created_by_user_id, k.expires_at, b.name AS brand_name, b.created_at AS brand_created_at,
                b.default_pickup_address AS brand_default_pickup_address, t.live_brand_id IS NULL AS livemode
           FROM api_keys k JOIN brands t ON t.id = k.brand_id
           JOIN brands b ON b.id = coalesce(t.live_brand_id, t.id)
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2)
            AND b.disabled_at IS NULL`,
        [hash, at],
      );
      const row = rows[0];
      return row
        ? {
            ...toKey(row),
            brandName: row.brand_name,
            brandCreatedAt: row.brand_created_at,
            brandDefaultPickupAddress: row.brand_default_pickup_address,
            livemode: row.livemode,
          }
        : null;
    },
    async listForBrand(brandId: string): Promise<ApiKeyRecord[]> {
      const { rows } = await db.query<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE brand_id = $1 ORDER BY created_at, id`,
        [brandId],
      );
      return rows.map(toKey);
    },
    /** Returns the key as it now is, or null when no such key exists. Revoking twice is harmless. */
    /** Revokes a key (again: unchanged); `justRevoked` says whether this call did it. */
    async revoke(id: string): Promise<(ApiKeyRecord & { justRevoked: boolean }) | null> {
      // now() is the transaction's start: equal only when this statement set it.
      const { rows } = await db.query<KeyRow & { just_revoked: boolean }>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
         RETURNING ${COLUMNS}, revoked_at = now() AS just_revoked`,
        [id],
      );
      return rows[0] ? { ...toKey(rows[0]), justRevoked: rows[0].just_revoked } : null;
    },
    async findInBrand(brandId: string, id: string): Promise<ApiKeyRecord | null> {
      const { rows } = await db.query<KeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND brand_id IN (${WITH_TWIN('$2')})`,
        [id, brandId],
      );
      return rows[0] ? toKey(rows[0]) : null;
    },
    async listWithCreators(brandId: string): Promise<ListedKey[]> {
      const { rows } = await db.query<KeyRow & { created_by_email: string | null }>(
        `SELECT k.id, k.brand_id, k.prefix, k.scopes, k.created_at, k.revoked_at, k.last_used_at, k.name,
                k.created_by_user_id, k.expires_at, u.email AS created_by_email
           FROM api_keys k LEFT JOIN users u ON u.id = k.created_by_user_id
          WHERE k.brand_id IN (${WITH_TWIN('$1')}) ORDER BY k.revoked_at IS NOT NULL, k.created_at DESC, k.id`,
        [brandId],
      );
      return rows.map((r) => ({ ...toKey(r), createdByEmail: r.created_by_email }));
    },
    async recordEvent(event: {
      brandId: string;
      keyId: string;
      userId: string | null;
      action: KeyAction;
      ip: string | null;
    }): Promise<void> {
      await db.query(
        'INSERT INTO key_events (brand_id, key_id, user_id, action, ip) VALUES ($1, $2, $3, $4, $5)',
        [event.brandId, event.keyId, event.userId, event.action, event.ip?.slice(0, 64) ?? null],
      );
    },
    async listEvents(brandId: string, limit: number): Promise<KeyEvent[]> {
      const { rows } = await db.query<{
        key_id: string;
        prefix: string;
        name: string | null;
        action: KeyAction;
        email: string | null;
        ip: string | null;
        created_at: Date;
      }>(
        `SELECT e.key_id, k.prefix, k.name, e.action, u.email, e.ip, e.created_at
           FROM key_events e JOIN api_keys k ON k.id = e.key_id LEFT JOIN users u ON u.id = e.user_id
          WHERE e.brand_id IN (${WITH_TWIN('$1')}) ORDER BY e.created_at DESC, e.id DESC LIMIT $2`,
        [brandId, limit],
      );
      return rows.map((r) => ({
        keyId: r.key_id,
        keyPrefix: r.prefix,
        keyName: r.name,
        action: r.action,
        userEmail: r.email,
        ip: r.ip,
        at: r.created_at,
      }));
    },
    /** Ends a key at `at` unless it already ends sooner (or is revoked); null when nothing changed. */
    async expire(id: string, at: Date): Promise<ApiKeyRecord | null> {
      const { rows } = await db.query<KeyRow>(
        `UPDATE api_keys SET expires_at = $2
          WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)
          RETURNING ${COLUMNS}`,
        [id, at],
      );
      return rows[0] ? toKey(rows[0]) : null;
    },
    async touch(id: string, at: Date): Promise<void> {
      await db.query(
        'UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)',
        [id, at],
      );
    },
  };
}
