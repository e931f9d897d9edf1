import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../src/db/pool.ts';
import { type MigrationDatabase, migrationDatabase } from './support/migration-database.ts';

/**
 * Migration 0038 on couriers already there: each must choose their own password at their next
 * sign-in (a hash does not say whether the operator generated it), their open sessions carry on,
 * and the French phone numbers typed by hand are stored in E.164.
 */
let db: MigrationDatabase;
let pool: Pool;
beforeAll(async () => {
  db = await migrationDatabase('0038');
  pool = db.pool;
});
afterAll(() => db.drop());

describe('migration 0038 (courier one-time passwords, E.164 phones)', () => {
  it('makes every courier choose a password at the next sign-in, keeps sessions, normalises French phones', async () => {
    await db.migrateBefore();
    const phones = [
      '06 12 34 56 78',
      '06.12.34.56.78',
      '+33 6 12 34 56 78',
      '+33 (0)6 12 34 56 78',
      '0033 6 12 34 56 78',
      '+33612345678',
      '+44 20 7946 0958',
      null,
    ];
    for (const [i, phone] of phones.entries()) {
      await pool.query(
        `INSERT INTO couriers (id, email, name, phone, password_hash) VALUES ($1, $2, 'Before 0038', $3, 'hash')`,
        [`cou_00000000000000${String(i).padStart(2, '0')}`, `c${i}@example.com`, phone],
      );
    }
    await pool.query(
      `INSERT INTO courier_sessions (id, courier_id, csrf_token) VALUES (sha256('s'), 'cou_0000000000000000', 'x')`,
    );

    await db.migrateIt();
    const { rows } = await pool.query<{ phone: string | null; until: Date; hash: string }>(
      `SELECT phone, one_time_password_until AS until, password_hash AS hash FROM couriers ORDER BY id`,
    );
    expect(rows.map((r) => r.phone)).toEqual([
      '+33612345678',
      '+33612345678',
      '+33612345678',
      '+33612345678',
      '+33612345678',
      '+33612345678',
      '+442079460958',
      null,
    ]);
    // The password they hold signs in once more, within two weeks, then they choose theirs.
    const { rows: now } = await pool.query<{ now: Date }>('SELECT now() AS now');
    for (const r of rows) {
      expect(r.hash).toBe('hash');
      expect(r.until.getTime() - now[0]!.now.getTime()).toBeGreaterThan(13 * 24 * 3600_000);
    }
    const { rows: sessions } = await pool.query('SELECT password_change_only FROM courier_sessions');
    expect(sessions).toEqual([{ password_change_only: false }]);
  });
});
