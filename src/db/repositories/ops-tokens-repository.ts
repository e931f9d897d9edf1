import type { OpsToken, OpsTokenStore } from '../../domain/operators/ports.ts';
import type { OpsScope } from '../../domain/operators/scopes.ts';
import type { Queryable } from '../pool.ts';

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  scopes: OpsScope[];
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const COLUMNS = 'id, name, prefix, scopes, created_at, expires_at, revoked_at, last_used_at';

const toToken = (r: TokenRow): OpsToken => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  scopes: r.scopes,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

/** The machine tokens of the operations API (migration 0047): digests and prefixes, never a token. */
export function opsTokensRepository(db: Queryable): OpsTokenStore {
  return {
    async insert(t) {
      const { rows } = await db.query<TokenRow>(
        `INSERT INTO ops_tokens (id, name, token_hash, prefix, scopes, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        [t.id, t.name, t.hash, t.prefix, t.scopes, t.expiresAt],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
    async findActiveByHash(hash, at) {
      const { rows } = await db.query<TokenRow>(
        `SELECT ${COLUMNS} FROM ops_tokens
          WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)`,
        [hash, at],
      );
      return rows[0] ? toToken(rows[0]) : null;
    },
    async list() {
      const { rows } = await db.query<TokenRow>(
        `SELECT ${COLUMNS} FROM ops_tokens
          ORDER BY revoked_at IS NOT NULL, (expires_at IS NOT NULL AND expires_at <= now()), created_at DESC, id`,
      );
      return rows.map(toToken);
    },
    async revoke(id) {
      // now() is the transaction's start: equal only when this statement set it.
      const { rows } = await db.query<TokenRow & { just_revoked: boolean }>(
        `UPDATE ops_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1
         RETURNING ${COLUMNS}, revoked_at = now() AS just_revoked`,
        [id],
      );
      return rows[0] ? { ...toToken(rows[0]), justRevoked: rows[0].just_revoked } : null;
    },
    async touch(id, at) {
      await db.query('UPDATE ops_tokens SET last_used_at = $2 WHERE id = $1', [id, at]);
    },
  };
}
