import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MigrationDatabase, migrationDatabase } from './support/migration-database.ts';

/**
 * Migration 0039: brand names stored before the sender-name rules lose their control characters
 * (a name is its e-mails' default From name and is in their subjects); nothing else changes.
 */
let db: MigrationDatabase;
beforeAll(async () => {
  db = await migrationDatabase('0039');
});
afterAll(() => db.drop());

describe('migration 0039 (brand names without control characters)', () => {
  it('replaces each run of control characters by a space, leaves other names as they were', async () => {
    await db.migrateBefore();
    const names: [string, string, string][] = [
      ['brd_0000000000003901', 'Evil\r\nBcc: victim@example.com', 'Evil Bcc: victim@example.com'],
      ['brd_0000000000003902', '\tMaison\u0085Éole\u2028 ', 'Maison Éole'],
      ['brd_0000000000003903', '\r\n', 'brd_0000000000003903'],
      ['brd_0000000000003904', 'Atelier <Lune> & "Co"', 'Atelier <Lune> & "Co"'],
      ['brd_0000000000003905', 'Café Noé', 'Café Noé'],
    ];
    for (const [id, name] of names)
      await db.pool.query('INSERT INTO brands (id, name) VALUES ($1, $2)', [id, name]);
    const { rows: before } = await db.pool.query('SELECT id, created_at FROM brands ORDER BY id');
    await db.migrateIt();
    const { rows } = await db.pool.query<{ id: string; name: string }>(
      'SELECT id, name FROM brands ORDER BY id',
    );
    expect(rows).toEqual(names.map(([id, , name]) => ({ id, name })));
    expect((await db.pool.query('SELECT id, created_at FROM brands ORDER BY id')).rows).toEqual(before);
  });
});
