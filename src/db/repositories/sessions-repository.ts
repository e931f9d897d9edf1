import type { SessionRecord, SessionStore } from '../../domain/accounts/ports.ts';
import type { TokenPurpose } from '../../domain/accounts/user.ts';
import { addJobSql } from '../../infra/queue/queue-sql.ts';
import { ACCOUNT_RESET_MAIL_SPEC } from '../../jobs/job-names.ts';
import type { Queryable } from '../pool.ts';

/** Sessions (keyed by the SHA-256 of the cookie's token) and one-time e-mail tokens (hashed too). */
export function sessionsRepository(db: Queryable): SessionStore {
  return {
    async insert(session: { id: Buffer; userId: string; csrfToken: string; at: Date }): Promise<void> {
      await db.query(
        `INSERT INTO sessions (id, user_id, csrf_token, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)`,
        [session.id, session.userId, session.csrfToken, session.at],
      );
    },
    /**
     * The session if it has been used since `idleSince` and opened after `openedSince`, its last use
     * moved to `at` in the same statement; an idle or too old one is deleted and null returned.
     */
    async touch(id: Buffer, at: Date, idleSince: Date, openedSince: Date): Promise<SessionRecord | null> {
      const { rows } = await db.query<{
        user_id: string;
        created_at: Date;
        last_seen_at: Date;
        step_up_at: Date | null;
        csrf_token: string;
      }>(
        `UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at > $3 AND created_at > $4
         RETURNING user_id, created_at, last_seen_at, step_up_at, csrf_token`,
        [id, at, idleSince, openedSince],
      );
      const row = rows[0];
      if (!row) {
        await db.query('DELETE FROM sessions WHERE id = $1', [id]);
        return null;
      }
      return {
        userId: row.user_id,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        stepUpAt: row.step_up_at,
        csrfToken: row.csrf_token,
      };
    },
    async stepUp(id: Buffer, at: Date): Promise<void> {
      await db.query('UPDATE sessions SET step_up_at = $2 WHERE id = $1', [id, at]);
    },
    async delete(id: Buffer): Promise<void> {
      await db.query('DELETE FROM sessions WHERE id = $1', [id]);
    },
    async deleteAllOf(userId: string): Promise<void> {
      await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
    },
    /**
     * Sessions idle since before `idleSince` or opened before `openedSince`, and tokens expired or
     * used before `before`: dead rows.
     */
    async deleteExpired(
      idleSince: Date,
      openedSince: Date,
      before: Date,
    ): Promise<{ sessions: number; tokens: number }> {
      const sessions = await db.query('DELETE FROM sessions WHERE last_seen_at <= $1 OR created_at <= $2', [
        idleSince,
        openedSince,
      ]);
      const tokens = await db.query('DELETE FROM user_tokens WHERE expires_at < $1 OR used_at < $1', [
        before,
      ]);
      return { sessions: sessions.rowCount ?? 0, tokens: tokens.rowCount ?? 0 };
    },
    async insertToken(token: { hash: Buffer; userId: string; purpose: TokenPurpose; expiresAt: Date }) {
      await db.query('INSERT INTO user_tokens (hash, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)', [
        token.hash,
        token.userId,
        token.purpose,
        token.expiresAt,
      ]);
    },
    /** Marks the token used and returns its user, or null when unknown, used, expired or for another purpose. */
    async consumeToken(hash: Buffer, purpose: TokenPurpose, at: Date): Promise<string | null> {
      const { rows } = await db.query<{ user_id: string }>(
        `UPDATE user_tokens SET used_at = $3
          WHERE hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 RETURNING user_id`,
        [hash, purpose, at],
      );
      return rows[0]?.user_id ?? null;
    },
    /** Uses up every live token of the user for `purposes` (a new password ends every reset link). */
    async useUpTokens(userId: string, purposes: readonly TokenPurpose[], at: Date): Promise<void> {
      await db.query(
        'UPDATE user_tokens SET used_at = $3 WHERE user_id = $1 AND purpose = ANY($2::text[]) AND used_at IS NULL',
        [userId, purposes, at],
      );
    },
    /** Queues the reset e-mail for an address, whoever it belongs to (the job looks). */
    async enqueueResetMail(email: string, locale: string): Promise<void> {
      await db.query(
        `SELECT ${addJobSql({
          task: '$1',
          payload: `json_build_object('v', $2::int, 'email', $3::text, 'locale', $4::text)`,
          maxAttempts: '$5',
        })}`,
        [
          ACCOUNT_RESET_MAIL_SPEC.name,
          ACCOUNT_RESET_MAIL_SPEC.payloadVersion,
          email,
          locale,
          ACCOUNT_RESET_MAIL_SPEC.maxAttempts,
        ],
      );
    },
    /** Whether the token would be accepted now (the reset form is shown only for a live link). */
    async tokenIsLive(hash: Buffer, purpose: TokenPurpose, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        'SELECT 1 FROM user_tokens WHERE hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3',
        [hash, purpose, at],
      );
      return rowCount === 1;
    },
  };
}
