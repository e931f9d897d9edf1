import type { Operator, StoredOperator } from '../../domain/operators/operator.ts';
import type { OperatorSessionRecord, OperatorStore } from '../../domain/operators/ports.ts';
import type { OperatorRole } from '../../domain/operators/scopes.ts';
import type { Queryable } from '../pool.ts';

interface OperatorRow {
  id: string;
  email: string;
  name: string;
  role: OperatorRole;
  password_hash: string;
  one_time_password_until: Date | null;
  totp_secret: Buffer | null;
  totp_pending_secret: Buffer | null;
  totp_enrolled_at: Date | null;
  totp_last_step: string | null;
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS =
  'id, email, name, role, password_hash, one_time_password_until, totp_secret, totp_pending_secret, ' +
  'totp_enrolled_at, totp_last_step, disabled_at, created_at';

const toStored = (r: OperatorRow): StoredOperator => ({
  id: r.id,
  email: r.email,
  name: r.name,
  role: r.role,
  mustChoosePassword: r.one_time_password_until !== null,
  secondFactorEnrolledAt: r.totp_enrolled_at,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
  passwordHash: r.password_hash,
  oneTimePasswordUntil: r.one_time_password_until,
  totpSecret: r.totp_secret,
  totpPendingSecret: r.totp_pending_secret,
  totpLastStep: r.totp_last_step === null ? null : Number(r.totp_last_step),
});

const toOperator = (r: OperatorRow): Operator => ({
  id: r.id,
  email: r.email,
  name: r.name,
  role: r.role,
  mustChoosePassword: r.one_time_password_until !== null,
  secondFactorEnrolledAt: r.totp_enrolled_at,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
});

interface SessionRow {
  operator_id: string;
  channel: OperatorSessionRecord['channel'];
  stage: OperatorSessionRecord['stage'];
  csrf_token: string;
  created_at: Date;
  last_seen_at: Date;
}

/** The operators, their recovery codes and their sessions (migration 0047). */
export function operatorsRepository(db: Queryable): OperatorStore {
  const one = async (sql: string, params: unknown[]) => {
    const { rows } = await db.query<OperatorRow>(sql, params);
    return rows[0] ? toOperator(rows[0]) : null;
  };
  const replaceRecoveryCodes = async (id: string, hashes: Buffer[]) => {
    await db.query(
      `WITH gone AS (DELETE FROM operator_recovery_codes WHERE operator_id = $1)
       INSERT INTO operator_recovery_codes (operator_id, code_hash) SELECT $1, unnest($2::bytea[])`,
      [id, hashes],
    );
  };
  return {
    insert(o) {
      return one(
        `INSERT INTO operators (id, email, name, role, password_hash, one_time_password_until)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        [o.id, o.email, o.name, o.role, o.passwordHash, o.oneTimePasswordUntil],
      );
    },
    async findById(id) {
      const { rows } = await db.query<OperatorRow>(`SELECT ${COLUMNS} FROM operators WHERE id = $1`, [id]);
      return rows[0] ? toStored(rows[0]) : null;
    },
    async findByEmail(email) {
      const { rows } = await db.query<OperatorRow>(
        `SELECT ${COLUMNS} FROM operators WHERE lower(email) = lower($1)`,
        [email],
      );
      return rows[0] ? toStored(rows[0]) : null;
    },
    async list() {
      const { rows } = await db.query<OperatorRow>(
        `SELECT ${COLUMNS} FROM operators ORDER BY disabled_at IS NOT NULL, name, created_at, id`,
      );
      return rows.map(toOperator);
    },
    async lockEnabledAdmins() {
      const { rows } = await db.query<{ id: string }>(
        `SELECT id FROM operators WHERE role = 'admin' AND disabled_at IS NULL ORDER BY id FOR UPDATE`,
      );
      return rows.map((r) => r.id);
    },
    setRole(id, role) {
      return one(`UPDATE operators SET role = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, role]);
    },
    disable(id, at) {
      return one(
        `WITH ended AS (DELETE FROM operator_sessions WHERE operator_id = $1)
         UPDATE operators SET disabled_at = coalesce(disabled_at, $2) WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, at],
      );
    },
    setPassword(id, passwordHash, oneTimeUntil) {
      return one(
        `WITH ended AS (DELETE FROM operator_sessions WHERE operator_id = $1)
         UPDATE operators SET password_hash = $2, one_time_password_until = $3 WHERE id = $1
         RETURNING ${COLUMNS}`,
        [id, passwordHash, oneTimeUntil],
      );
    },
    resetSecondFactor(id, passwordHash, oneTimeUntil) {
      return one(
        `WITH ended AS (DELETE FROM operator_sessions WHERE operator_id = $1),
              codes AS (DELETE FROM operator_recovery_codes WHERE operator_id = $1)
         UPDATE operators
            SET password_hash = $2, one_time_password_until = $3, totp_secret = NULL,
                totp_pending_secret = NULL, totp_enrolled_at = NULL, totp_last_step = NULL
          WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, passwordHash, oneTimeUntil],
      );
    },
    async useOneTimePassword(id, passwordHash, at) {
      // Moving the end to now is what uses it up: a second sign-in finds it ended.
      const { rowCount } = await db.query(
        `UPDATE operators SET one_time_password_until = $3
          WHERE id = $1 AND password_hash = $2 AND one_time_password_until > $3 AND disabled_at IS NULL`,
        [id, passwordHash, at],
      );
      return rowCount === 1;
    },
    async useTotpStep(id, step) {
      // One statement decides: of two sign-ins with the same code, one moves the step and the other finds it moved.
      const { rowCount } = await db.query(
        `UPDATE operators SET totp_last_step = $2
          WHERE id = $1 AND totp_secret IS NOT NULL AND (totp_last_step IS NULL OR totp_last_step < $2)`,
        [id, step],
      );
      return rowCount === 1;
    },
    async setPendingSecret(id, sealed) {
      await db.query('UPDATE operators SET totp_pending_secret = $2 WHERE id = $1 AND totp_secret IS NULL', [
        id,
        sealed,
      ]);
    },
    async enrol(id, pending, step, at, recoveryHashes) {
      const { rowCount } = await db.query(
        `UPDATE operators
            SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_enrolled_at = $3,
                totp_last_step = $4
          WHERE id = $1 AND totp_secret IS NULL AND totp_pending_secret = $2`,
        [id, pending, at, step],
      );
      if (rowCount !== 1) return false;
      await replaceRecoveryCodes(id, recoveryHashes);
      return true;
    },
    replaceRecoveryCodes,
    async useRecoveryCode(id, hash, at) {
      const { rowCount } = await db.query(
        `UPDATE operator_recovery_codes SET used_at = $3
          WHERE operator_id = $1 AND code_hash = $2 AND used_at IS NULL`,
        [id, hash, at],
      );
      return rowCount === 1;
    },
    async recoveryCodesLeft(id) {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM operator_recovery_codes WHERE operator_id = $1 AND used_at IS NULL',
        [id],
      );
      return rows[0]?.n ?? 0;
    },

    async insertSession(s) {
      await db.query(
        `INSERT INTO operator_sessions (id, operator_id, channel, stage, csrf_token, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)`,
        [s.id, s.operatorId, s.channel, s.stage, s.csrfToken, s.at],
      );
    },
    async touchSession(id, channel, at, bounds) {
      const { rows } = await db.query<SessionRow>(
        `UPDATE operator_sessions SET last_seen_at = $3
          WHERE id = $1 AND channel = $2 AND last_seen_at > $4
            AND created_at > CASE stage WHEN 'setup' THEN $6::timestamptz ELSE $5::timestamptz END
         RETURNING operator_id, channel, stage, csrf_token, created_at, last_seen_at`,
        [id, channel, at, bounds.idleSince, bounds.openedSince, bounds.setupOpenedSince],
      );
      const row = rows[0];
      if (!row) {
        // Dead (or another channel's: left alone, it is not this caller's to end).
        await db.query('DELETE FROM operator_sessions WHERE id = $1 AND channel = $2', [id, channel]);
        return null;
      }
      return {
        operatorId: row.operator_id,
        channel: row.channel,
        stage: row.stage,
        csrfToken: row.csrf_token,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
      };
    },
    async deleteSession(id) {
      await db.query('DELETE FROM operator_sessions WHERE id = $1', [id]);
    },
    async deleteExpiredSessions(bounds) {
      const { rowCount } = await db.query(
        `DELETE FROM operator_sessions
          WHERE last_seen_at <= $1 OR created_at <= $2 OR (stage = 'setup' AND created_at <= $3)`,
        [bounds.idleSince, bounds.openedSince, bounds.setupOpenedSince],
      );
      return rowCount ?? 0;
    },
  };
}
