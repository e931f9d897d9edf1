import type { UserStore } from '../../domain/accounts/ports.ts';
import type { Role, User } from '../../domain/accounts/user.ts';
import type { Queryable } from '../pool.ts';

interface UserRow {
  id: string;
  brand_id: string;
  email: string;
  password_hash: string;
  role: Role;
  email_verified_at: Date | null;
  created_at: Date;
  brand_name: string;
  brand_disabled_at: Date | null;
}

const SELECT = `SELECT u.id, u.brand_id, u.email, u.password_hash, u.role, u.email_verified_at, u.created_at,
                       b.name AS brand_name, b.disabled_at AS brand_disabled_at
                  FROM users u JOIN brands b ON b.id = u.brand_id`;

const toUser = (r: UserRow): User & { passwordHash: string } => ({
  id: r.id,
  brandId: r.brand_id,
  brandName: r.brand_name,
  brandDisabledAt: r.brand_disabled_at,
  email: r.email,
  passwordHash: r.password_hash,
  role: r.role,
  emailVerifiedAt: r.email_verified_at,
  createdAt: r.created_at,
});

/** People of a brand. E-mails are unique whatever their case (`users_email_idx` on lower(email)). */
export function usersRepository(db: Queryable): UserStore {
  return {
    /** Null when the e-mail is already taken (by any brand). */
    async insert(user: { id: string; brandId: string; email: string; passwordHash: string; role: Role }) {
      const { rowCount } = await db.query(
        `INSERT INTO users (id, brand_id, email, password_hash, role) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING`,
        [user.id, user.brandId, user.email, user.passwordHash, user.role],
      );
      return rowCount === 1 ? this.findById(user.id) : null;
    },
    async findById(id: string) {
      const { rows } = await db.query<UserRow>(`${SELECT} WHERE u.id = $1`, [id]);
      return rows[0] ? toUser(rows[0]) : null;
    },
    async findByEmail(email: string) {
      const { rows } = await db.query<UserRow>(`${SELECT} WHERE lower(u.email) = lower($1)`, [email]);
      return rows[0] ? toUser(rows[0]) : null;
    },
    async emailTaken(email: string): Promise<boolean> {
      const { rowCount } = await db.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email]);
      return rowCount === 1;
    },
    async markVerified(id: string): Promise<void> {
      await db.query(
        'UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = $1',
        [id],
      );
    },
    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [id, passwordHash]);
    },
    /** The brand's people, oldest first (the team page). */
    async listForBrand(brandId: string): Promise<User[]> {
      const { rows } = await db.query<UserRow>(
        `${SELECT} WHERE u.brand_id = $1 ORDER BY u.created_at, u.id`,
        [brandId],
      );
      return rows.map((r) => {
        const { passwordHash: _, ...user } = toUser(r);
        return user;
      });
    },
    /** Locks the brand's people (in a transaction) so that role changes are decided one at a time. */
    async lockBrand(brandId: string): Promise<{ id: string; role: Role }[]> {
      const { rows } = await db.query<{ id: string; role: Role }>(
        'SELECT id, role FROM users WHERE brand_id = $1 ORDER BY id FOR UPDATE',
        [brandId],
      );
      return rows;
    },
    async setRole(id: string, role: Role): Promise<void> {
      await db.query('UPDATE users SET role = $2 WHERE id = $1', [id, role]);
    },
    /** Their sessions and one-time tokens go with them (ON DELETE CASCADE). */
    async delete(id: string): Promise<void> {
      await db.query('DELETE FROM users WHERE id = $1', [id]);
    },
  };
}
