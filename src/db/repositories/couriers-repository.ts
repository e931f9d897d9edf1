import type { Courier, CourierSessionRecord, StoredCourier } from '../../domain/couriers/courier.ts';
import type { CourierStore } from '../../domain/couriers/ports.ts';
import type { Locale } from '../../i18n/locales.ts';
import type { Queryable } from '../pool.ts';

interface CourierRow {
  id: string;
  email: string;
  name: string;
  phone: string | null;
  locale: Locale;
  password_hash: string;
  one_time_password_until: Date | null;
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS =
  'id, email, name, phone, locale, password_hash, one_time_password_until, disabled_at, created_at';

const toCourier = (r: CourierRow): StoredCourier => ({
  id: r.id,
  email: r.email,
  name: r.name,
  phone: r.phone,
  locale: r.locale,
  mustChoosePassword: r.one_time_password_until !== null,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
  passwordHash: r.password_hash,
  oneTimePasswordUntil: r.one_time_password_until,
});

const withoutHash = (r: CourierRow): Courier => {
  const { passwordHash: _, oneTimePasswordUntil: __, ...courier } = toCourier(r);
  return courier;
};

/** The operator's couriers and their sessions (migrations 0032, 0038). */
export function couriersRepository(db: Queryable): CourierStore {
  return {
    async insert(courier) {
      const { rows } = await db.query<CourierRow>(
        `INSERT INTO couriers (id, email, name, phone, locale, password_hash, one_time_password_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        [
          courier.id,
          courier.email,
          courier.name,
          courier.phone,
          courier.locale,
          courier.passwordHash,
          courier.oneTimePasswordUntil,
        ],
      );
      return rows[0] ? withoutHash(rows[0]) : null;
    },
    async findById(id) {
      const { rows } = await db.query<CourierRow>(`SELECT ${COLUMNS} FROM couriers WHERE id = $1`, [id]);
      return rows[0] ? toCourier(rows[0]) : null;
    },
    async findByEmail(email) {
      const { rows } = await db.query<CourierRow>(
        `SELECT ${COLUMNS} FROM couriers WHERE lower(email) = lower($1)`,
        [email],
      );
      return rows[0] ? toCourier(rows[0]) : null;
    },
    async list() {
      const { rows } = await db.query<CourierRow>(
        `SELECT ${COLUMNS} FROM couriers ORDER BY disabled_at IS NOT NULL, name, created_at, id`,
      );
      return rows.map(withoutHash);
    },
    async disable(id, at) {
      const { rows } = await db.query<CourierRow>(
        `WITH ended AS (DELETE FROM courier_sessions WHERE courier_id = $1)
         UPDATE couriers SET disabled_at = coalesce(disabled_at, $2) WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, at],
      );
      return rows[0] ? withoutHash(rows[0]) : null;
    },
    async useOneTimePassword(id, passwordHash, at) {
      // Moving the end to now is what uses it up: a second sign-in finds it ended.
      const { rowCount } = await db.query(
        `UPDATE couriers SET one_time_password_until = $3
          WHERE id = $1 AND password_hash = $2 AND one_time_password_until > $3 AND disabled_at IS NULL`,
        [id, passwordHash, at],
      );
      return rowCount === 1;
    },
    async setPassword(id, passwordHash, oneTimeUntil) {
      const { rows } = await db.query<CourierRow>(
        `WITH ended AS (DELETE FROM courier_sessions WHERE courier_id = $1)
         UPDATE couriers SET password_hash = $2, one_time_password_until = $3 WHERE id = $1
         RETURNING ${COLUMNS}`,
        [id, passwordHash, oneTimeUntil],
      );
      return rows[0] ? withoutHash(rows[0]) : null;
    },
    async insertSession(session) {
      await db.query(
        `INSERT INTO courier_sessions (id, courier_id, csrf_token, created_at, last_seen_at, password_change_only)
         VALUES ($1, $2, $3, $4, $4, $5)`,
        [session.id, session.courierId, session.csrfToken, session.at, session.passwordChangeOnly],
      );
    },
    async touchSession(id, at, idleSince, openedSince): Promise<CourierSessionRecord | null> {
      const { rows } = await db.query<{
        courier_id: string;
        created_at: Date;
        last_seen_at: Date;
        csrf_token: string;
        password_change_only: boolean;
      }>(
        `UPDATE courier_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at > $3 AND created_at > $4
         RETURNING courier_id, created_at, last_seen_at, csrf_token, password_change_only`,
        [id, at, idleSince, openedSince],
      );
      const row = rows[0];
      if (!row) {
        await db.query('DELETE FROM courier_sessions WHERE id = $1', [id]);
        return null;
      }
      return {
        courierId: row.courier_id,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        csrfToken: row.csrf_token,
        passwordChangeOnly: row.password_change_only,
      };
    },
    async deleteSession(id) {
      await db.query('DELETE FROM courier_sessions WHERE id = $1', [id]);
    },
    async deleteExpiredSessions(idleSince, openedSince) {
      const { rowCount } = await db.query(
        'DELETE FROM courier_sessions WHERE last_seen_at <= $1 OR created_at <= $2',
        [idleSince, openedSince],
      );
      return rowCount ?? 0;
    },
  };
}
