import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../src/db/pool.ts';
import { auditRepository } from '../src/db/repositories/audit-repository.ts';
import { transactOn } from '../src/db/stores.ts';
import { auditLog } from '../src/domain/audit/audit-log.ts';
import { CRONTAB } from '../src/jobs/index.ts';
import { testOperator } from './support/audit.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

/**
 * The audit trail cannot be rewritten (issue 38, decision 0009): its triggers refuse UPDATE, DELETE
 * and TRUNCATE to everyone (the tests and `npm start` connect as a superuser, whom GRANTs do not
 * bind), and the application's role set up as deploy/postgres/application-role.sql says is refused
 * them by its privileges too. Its retention drops whole months only. A database of its own: the
 * retention drops months of it.
 */
let t: ScratchTestApp;
beforeAll(async () => {
  t = await buildScratchTestApp();
}, 60_000);
afterAll(() => t.close());

const entry = (id: string) => ({
  action: 'order.status_changed' as const,
  by: testOperator,
  object: { type: 'order' as const, id },
  orderRefs: [id],
  changes: { status: { before: 'pending', after: 'picked_up' } },
});

const APPEND_ONLY = /the audit trail is append-only/;

describe('the append-only trail', () => {
  it("refuses an UPDATE, a DELETE and a TRUNCATE through the application's pool, on the table and on its months", async () => {
    await auditRepository(t.pool).record(entry('DLV-APPENDONLY1'));
    const month = (
      await t.pool.query(
        "SELECT tableoid::regclass::text AS month FROM audit_events WHERE object_id = 'DLV-APPENDONLY1'",
      )
    ).rows[0].month as string;
    expect(month).toMatch(/^audit_events_\d{4}_\d{2}$/);
    for (const sql of [
      "UPDATE audit_events SET actor_label = 'someone else' WHERE object_id = 'DLV-APPENDONLY1'",
      "DELETE FROM audit_events WHERE object_id = 'DLV-APPENDONLY1'",
      'TRUNCATE audit_events',
      `UPDATE ${month} SET changes = NULL`,
      `DELETE FROM ${month}`,
      `TRUNCATE ${month}`,
      'DELETE FROM audit_events_default',
      // Even a statement that matches no row: refused before it looks.
      'UPDATE audit_events SET action = action WHERE false',
    ]) {
      await expect(t.pool.query(sql), sql).rejects.toMatchObject({
        code: '42501',
        message: expect.stringMatching(APPEND_ONLY),
      });
    }
    const { rows } = await t.pool.query(
      "SELECT actor_label, changes FROM audit_events WHERE object_id = 'DLV-APPENDONLY1'",
    );
    expect(rows).toEqual([
      { actor_label: 'vitest@test-host', changes: { status: { before: 'pending', after: 'picked_up' } } },
    ]);
  });

  describe('an application role that does not own the tables', () => {
    const role = `dlv_app_${randomBytes(4).toString('hex')}`;
    const password = randomBytes(12).toString('hex');
    let app: Pool;

    beforeAll(async () => {
      await t.pool.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
      // Every new table given to the role by default, as a careless set-up would: the months the
      // trail makes later must still not be changeable by it.
      await t.pool.query(`ALTER DEFAULT PRIVILEGES GRANT ALL ON TABLES TO ${role}`);
      const script = await readFile(
        new URL('../deploy/postgres/application-role.sql', import.meta.url),
        'utf8',
      );
      await t.pool.query(script.replaceAll('dlv_app', role));
      const url = new URL(t.databaseUrl);
      url.username = role;
      url.password = password;
      app = createPool(url.toString(), 2);
    });
    afterAll(async () => {
      await app?.end();
      await t.pool.query(`DROP OWNED BY ${role}`);
      await t.pool.query(`DROP ROLE ${role}`);
    });

    it('appends and reads, and is refused UPDATE, DELETE and TRUNCATE by its privileges', async () => {
      await auditRepository(app).record(entry('DLV-APPROLE0001'));
      const listed = await auditRepository(app).page(
        { actor: null, orderRef: 'DLV-APPROLE0001', actions: null, brandId: null, since: null, until: null },
        null,
        10,
      );
      expect(listed.map((r) => r.object.id)).toEqual(['DLV-APPROLE0001']);
      const months = (
        await t.pool.query<{ month: string }>(
          "SELECT inhrelid::regclass::text AS month FROM pg_inherits WHERE inhparent = 'audit_events'::regclass",
        )
      ).rows.map((r) => r.month);
      for (const sql of [
        "UPDATE audit_events SET actor_label = 'x' WHERE object_id = 'DLV-APPROLE0001'",
        "DELETE FROM audit_events WHERE object_id = 'DLV-APPROLE0001'",
        'TRUNCATE audit_events',
        ...months.map((m) => `DELETE FROM ${m}`),
        `DROP TABLE ${months[0]}`,
      ]) {
        await expect(app.query(sql), sql).rejects.toMatchObject({
          message: expect.stringMatching(/permission denied|must be owner/),
        });
      }
      // Nor may it drop recent months through the retention's function: the database keeps 90 days.
      await expect(
        app.query("SELECT audit_drop_partitions_before(now() - interval '10 days')"),
      ).rejects.toThrow(/keeps at least 90 days/);
      // The months made later (by the daily job, as the owner) are no more changeable by it.
      await app.query('SELECT audit_prepare_partitions(6)');
      const { rows } = await t.pool.query<{ month: string; writable: boolean }>(
        `SELECT inhrelid::regclass::text AS month,
            has_table_privilege($1, inhrelid, 'UPDATE') OR has_table_privilege($1, inhrelid, 'DELETE')
              OR has_table_privilege($1, inhrelid, 'TRUNCATE') AS writable
          FROM pg_inherits WHERE inhparent = 'audit_events'::regclass`,
        [role],
      );
      expect(rows.length).toBeGreaterThan(months.length);
      expect(rows.filter((r) => r.writable)).toEqual([]);
      // Its other tables are its to write.
      expect(
        (await t.pool.query("SELECT has_table_privilege($1, 'orders', 'UPDATE') AS ok", [role])).rows[0].ok,
      ).toBe(true);
    });
  });
});

describe('the retention (AUDIT_RETENTION_DAYS)', () => {
  it('is run daily by the audit_partitions job', () => {
    expect(CRONTAB).toMatch(/^25 4 \* \* \* audit_partitions \?max=3$/m);
  });

  it('drops whole months older than the retention, records each drop, and keeps the months ahead ready', async () => {
    // A month from long ago, as a trail kept for years would have.
    await t.pool.query(
      `CREATE TABLE audit_events_2020_01 PARTITION OF audit_events
        FOR VALUES FROM ('2020-01-01 00:00:00+00') TO ('2020-02-01 00:00:00+00')`,
    );
    await t.pool.query(
      `INSERT INTO audit_events (at, actor_kind, actor_id, actor_label, action, object_type, object_id)
        VALUES ('2020-01-15T10:00:00Z', 'cli', 'old@host', 'old@host', 'order.status_changed', 'order', 'DLV-OLDOLDOLD1'),
               ('2020-01-16T10:00:00Z', 'cli', 'old@host', 'old@host', 'order.status_changed', 'order', 'DLV-OLDOLDOLD2')`,
    );
    await auditRepository(t.pool).record(entry('DLV-KEPTKEPT01'));
    const log = auditLog({
      store: auditRepository(t.pool),
      transact: transactOn(t.pool),
      cursors: t.deps.cursors,
      clock: () => new Date(),
      retentionDays: 365,
    });
    const run = await log.upkeep();
    expect(run.dropped).toEqual([{ partition: 'audit_events_2020_01', rows: 2 }]);
    expect((await t.pool.query("SELECT to_regclass('audit_events_2020_01') AS t")).rows[0].t).toBeNull();
    const { rows } = await t.pool.query(
      "SELECT actor_kind, actor_id, action, object_id, details FROM audit_events WHERE action = 'audit.partition_dropped'",
    );
    expect(rows).toEqual([
      {
        actor_kind: 'system',
        actor_id: 'audit_partitions',
        action: 'audit.partition_dropped',
        object_id: 'audit_events_2020_01',
        details: expect.objectContaining({ rows: 2, retention_days: 365 }),
      },
    ]);
    expect(
      (await t.pool.query("SELECT count(*)::int AS n FROM audit_events WHERE object_id = 'DLV-KEPTKEPT01'"))
        .rows[0].n,
    ).toBe(1);
    // The current month and three ahead exist; a second run has nothing to do.
    const months = (
      await t.pool.query<{ month: string }>(
        "SELECT inhrelid::regclass::text AS month FROM pg_inherits WHERE inhparent = 'audit_events'::regclass",
      )
    ).rows.map((r) => r.month);
    const start = new Date();
    for (let i = 0; i <= 3; i++) {
      const m = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1));
      expect(months).toContain(
        `audit_events_${m.getUTCFullYear()}_${String(m.getUTCMonth() + 1).padStart(2, '0')}`,
      );
    }
    expect(await log.upkeep()).toEqual({ created: [], dropped: [] });
  });

  it('refuses a retention shorter than 90 days in the database itself', async () => {
    await expect(
      auditRepository(t.pool).dropPartitionsBefore(new Date(Date.now() - 30 * 86_400_000)),
    ).rejects.toThrow(/keeps at least 90 days/);
  });
});
