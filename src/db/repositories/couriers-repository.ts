import type { Courier, CourierSessionRecord } from '../../domain/couriers/courier.ts';
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
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, email, name, phone, locale, password_hash, disabled_at, created_at';

const toCourier = (r: CourierRow): Courier & { passwordHash: string } => ({
  id: r.id,
  email: r.email,
  name: r.name,
  phone: r.phone,
  locale: r.locale,
  disabledAt: r.disabled_at,
  createdAt: r.created_at,
  passwordHash: r.password_hash,
});

const withoutHash = (r: CourierRow): Courier => {
  const { passwordHash: _, ...courier } = toCourier(r);
  return courier;
};

/** The operator's couriers and their sessions (migration 0032). */
export function couriersRepository(db: Queryable): CourierStore {
  return {
    async insert(courier) {
      const { rows } = await db.query<CourierRow>(
        `INSERT INTO couriers (id, email, name, phone, locale, password_hash) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        [courier.id, courier.email, courier.name, courier.phone, courier.locale, courier.passwordHash],
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
    async insertSession(session) {
      await db.query(
        `INSERT INTO courier_sessions (id, courier_id, csrf_token, created_at, last_seen_at)
         VALUES ($1, $2, $3, $4, $4)`,
        [session.id, session.courierId, session.csrfToken, session.at],
      );
    },
    async touchSession(id, at, idleSince, openedSince): Promise<CourierSessionRecord | null> {
      const { rows } = await db.query<{
        courier_id: string;
        created_at: Date;
        last_seen_at: Date;
        csrf_token: string;
      }>(
        `UPDATE courier_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at > $3 AND created_at > $4
         RETURNING courier_id, created_at, last_seen_at, csrf_token`,
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
