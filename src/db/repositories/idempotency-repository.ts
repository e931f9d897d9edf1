import { createHash } from 'node:crypto';
import type { Queryable } from '../pool.ts';

export interface StoredResponse {
  requestHash: Buffer;
  statusCode: number;
  body: unknown;
}

/** Keys are kept 24 h (SPEC §5); older ones are ignored at once and deleted by the cleanup job. */
const IDEMPOTENCY_TTL_HOURS = 24;

export interface IdempotencyRepository {
  /**
   * Takes the per-(brand, key) lock for the rest of the transaction, without waiting: false means
   * another request with this key is being processed right now. A crashed holder's lock goes with
   * its connection, so a key is never stuck.
   */
  tryLock(brandId: string, key: string): Promise<boolean>;
  find(brandId: string, key: string): Promise<StoredResponse | null>;
  save(brandId: string, key: string, response: StoredResponse): Promise<void>;
  deleteExpired(): Promise<number>;
}

/** All statements here must run on one client inside one transaction (the lock is transaction-scoped). */
export function idempotencyRepository(db: Queryable): IdempotencyRepository {
  return {
    /**
     * Takes the per-(brand, key) lock for the rest of the transaction, without waiting: false means
     * another request with this key is being processed right now. A crashed holder's lock goes with
     * its connection, so a key is never stuck.
     */
    async tryLock(brandId: string, key: string): Promise<boolean> {
      const lockId = createHash('sha256').update(`${brandId}\u0000${key}`).digest().readBigInt64BE(0);
      const { rows } = await db.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        lockId.toString(),
      ]);
      return rows[0]!.locked;
    },
    async find(brandId: string, key: string): Promise<StoredResponse | null> {
      const { rows } = await db.query<{ request_hash: Buffer; status_code: number; response_body: unknown }>(
        `SELECT request_hash, status_code, response_body FROM idempotency_keys
          WHERE brand_id = $1 AND key = $2 AND created_at > now() - make_interval(hours => $3)`,
        [brandId, key, IDEMPOTENCY_TTL_HOURS],
      );
      const row = rows[0];
      return row
        ? { requestHash: row.request_hash, statusCode: row.status_code, body: row.response_body }
        : null;
    },
    async save(brandId: string, key: string, response: StoredResponse): Promise<void> {
      // An expired row for the same key may still be there: the new use replaces it.
      await db.query(
        `INSERT INTO idempotency_keys (brand_id, key, request_hash, status_code, response_body)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (brand_id, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, status_code = EXCLUDED.status_code,
               response_body = EXCLUDED.response_body, created_at = now()`,
        [
          brandId,
          key,
          response.requestHash,
          response.statusCode,
          // A body already rendered as JSON text is stored as the JSON it holds.
          typeof response.body === 'string' ? response.body : JSON.stringify(response.body),
        ],
      );
    },
    async deleteExpired(): Promise<number> {
      const { rowCount } = await db.query(
        'DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(hours => $1)',
        [IDEMPOTENCY_TTL_HOURS],
      );
      return rowCount ?? 0;
    },
  };
}
