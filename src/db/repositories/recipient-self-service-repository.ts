import type { OrderStatus } from '../../domain/orders/state-machine.ts';
import type { Channel } from '../../domain/recipients/ports.ts';
import type {
  SafePlaceKind,
  SealedChoices,
  SelfServiceStore,
  StoredCode,
} from '../../domain/recipients/self-service-ports.ts';
import type { Queryable } from '../pool.ts';

/** The tracking page's self-service (recipient_codes, recipient_choices, the code's notification). */
export function recipientSelfServiceRepository(db: Queryable): SelfServiceStore {
  return {
    async lockOrder(orderId) {
      const { rows } = await db.query<{ status: OrderStatus; promised_date: string | null }>(
        `SELECT status, to_char(promised_date, 'YYYY-MM-DD') AS promised_date FROM orders WHERE id = $1 FOR UPDATE`,
        [orderId],
      );
      return rows[0] ? { status: rows[0].status, promisedDate: rows[0].promised_date } : null;
    },
    async codesSentOn(orderId, parisDate) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM recipient_codes
          WHERE order_id = $1 AND (created_at AT TIME ZONE 'Europe/Paris')::date = $2::date`,
        [orderId, parisDate],
      );
      return rows[0]!.n;
    },
    async insertCode(code) {
      // A new code replaces the ones before it: they expire now (only the last one sent is typed).
      await db.query(
        'UPDATE recipient_codes SET expires_at = least(expires_at, $2) WHERE order_id = $1 AND used_at IS NULL',
        [code.orderId, code.createdAt],
      );
      await db.query(
        `INSERT INTO recipient_codes (id, order_id, channel, code_hash, attempts, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [code.id, code.orderId, code.channel, code.codeHash, code.attempts, code.expiresAt, code.createdAt],
      );
    },
    async latestUnusedCode(orderId) {
      const { rows } = await db.query<{
        id: string;
        channel: Channel;
        code_hash: Buffer;
        attempts: number;
        expires_at: Date;
      }>(
        `SELECT id, channel, code_hash, attempts, expires_at FROM recipient_codes
          WHERE order_id = $1 AND used_at IS NULL ORDER BY expires_at DESC, created_at DESC LIMIT 1 FOR UPDATE`,
        [orderId],
      );
      const r = rows[0];
      return r
        ? ({
            id: r.id,
            channel: r.channel,
            codeHash: r.code_hash,
            attempts: r.attempts,
            expiresAt: r.expires_at,
          } satisfies StoredCode)
        : null;
    },
    async recordWrongTry(codeId) {
      const { rows } = await db.query<{ attempts: number }>(
        'UPDATE recipient_codes SET attempts = least(attempts + 1, 5) WHERE id = $1 RETURNING attempts',
        [codeId],
      );
      return rows[0]!.attempts;
    },
    async markUsed(codeId, at) {
      await db.query('UPDATE recipient_codes SET used_at = $2 WHERE id = $1', [codeId, at]);
    },
    async recordCodeNotification(row) {
      await db.query(
        `INSERT INTO recipient_notifications (id, order_id, event_id, step, channel, status, created_at, updated_at)
         VALUES ($1, $2, NULL, 'code', $3, $4, $5, $5)`,
        [row.id, row.orderId, row.channel, row.status, row.at],
      );
    },
    async settleCodeNotification(id, outcome) {
      await db.query(
        `UPDATE recipient_notifications SET status = $2, detail = $3, provider_id = $4, updated_at = $5 WHERE id = $1`,
        [id, outcome.status, outcome.detail, outcome.providerId, outcome.at],
      );
    },
    async choicesOf(orderIds) {
      if (orderIds.length === 0) return new Map();
      const { rows } = await db.query<{
        order_id: string;
        instructions_sealed: Buffer | null;
        safe_place: SafePlaceKind | null;
        safe_place_sealed: Buffer | null;
      }>(
        `SELECT order_id::text, instructions_sealed, safe_place, safe_place_sealed FROM recipient_choices
          WHERE order_id = ANY($1::bigint[])`,
        [orderIds.map(String)],
      );
      return new Map(
        rows.map((r): [string, SealedChoices] => [
          r.order_id,
          {
            instructionsSealed: r.instructions_sealed,
            safePlace: r.safe_place,
            safePlaceSealed: r.safe_place_sealed,
          },
        ]),
      );
    },
    async saveChoices(orderId, choices, at) {
      await db.query(
        `INSERT INTO recipient_choices (order_id, instructions_sealed, safe_place, safe_place_sealed, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (order_id) DO UPDATE SET instructions_sealed = EXCLUDED.instructions_sealed,
           safe_place = EXCLUDED.safe_place, safe_place_sealed = EXCLUDED.safe_place_sealed,
           updated_at = EXCLUDED.updated_at`,
        [orderId, choices.instructionsSealed, choices.safePlace, choices.safePlaceSealed, at],
      );
    },
  };
}
