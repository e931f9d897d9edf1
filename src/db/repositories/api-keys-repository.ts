import type { Scope } from '../../domain/api-keys/keys.ts';
import type { Queryable } from '../pool.ts';

export interface ApiKeyRecord {
  id: string;
  brandId: string;
  prefix: string;
  scopes: Scope[];
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** What authentication needs in one query: the key and its brand. */
export interface KeyWithBrand extends ApiKeyRecord {
  brandName: string;
  brandCreatedAt: Date;
  brandDefaultPickupAddress: string | null;
}

interface KeyRow {
  id: string;
  brand_id: string;
  prefix: string;
  scopes: Scope[];
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  brandId: r.brand_id,
  prefix: r.prefix,
  scopes: r.scopes,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

export function apiKeysRepository(db: Queryable) {
  return {
    async insert(key: { id: string; brandId: string; hash: Buffer; prefix: string; scopes: Scope[] }) {
      const { rows } = await db.query<KeyRow>(
        `INSERT INTO api_keys (id, brand_id, key_hash, prefix, scopes) VALUES ($1, $2, $3, $4, $5)
         RETURNING id, brand_id, prefix, scopes, created_at, revoked_at, last_used_at`,
        [key.id, key.brandId, key.hash, key.prefix, key.scopes],
      );
      return toKey(rows[0]!);
    },
    async findActiveByHash(hash: Buffer): Promise<KeyWithBrand | null> {
      const { rows } = await db.query<
        KeyRow & { brand_name: string; brand_created_at: Date; brand_default_pickup_address: string | null }
      >(
        `SELECT k.id, k.brand_id, k.prefix, k.scopes, k.created_at, k.revoked_at, k.last_used_at,
                b.name AS brand_name, b.created_at AS brand_created_at,
                b.default_pickup_address AS brand_default_pickup_address
           FROM api_keys k JOIN brands b ON b.id = k.brand_id
          WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
        [hash],
      );
      const row = rows[0];
      return row
        ? {
            ...toKey(row),
            brandName: row.brand_name,
            brandCreatedAt: row.brand_created_at,
            brandDefaultPickupAddress: row.brand_default_pickup_address,
          }
        : null;
    },
    async listForBrand(brandId: string): Promise<ApiKeyRecord[]> {
      const { rows } = await db.query<KeyRow>(
        `SELECT id, brand_id, prefix, scopes, created_at, revoked_at, last_used_at
           FROM api_keys WHERE brand_id = $1 ORDER BY created_at, id`,
        [brandId],
      );
      return rows.map(toKey);
    },
    /** Returns the key as it now is, or null when no such key exists. Revoking twice is harmless. */
    async revoke(id: string): Promise<ApiKeyRecord | null> {
      const { rows } = await db.query<KeyRow>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
         RETURNING id, brand_id, prefix, scopes, created_at, revoked_at, last_used_at`,
        [id],
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

export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
