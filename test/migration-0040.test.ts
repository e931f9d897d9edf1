import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { migrate } from '../src/db/migrate.ts';
import { optOutKeyring } from '../src/db/opt-out-key.ts';
import { createPool, type Pool } from '../src/db/pool.ts';
import { serverSecretsRepository } from '../src/db/repositories/server-secrets-repository.ts';
import { createDeps, type Deps } from '../src/deps.ts';
import { testConfig } from './support/app.ts';
import { type MigrationDatabase, migrationDatabase } from './support/migration-database.ts';
import { optOutSource } from './support/recipients.ts';
import { runDlv } from './support/run-cli.ts';
import { startService } from './support/service-process.ts';

// Migration 0040 and the service's start-up after it (issue 36, item 4): the opt-out list and the
// unsubscribe links keyed with OPT_OUT_KEY, on a database holding opt-outs and links of before.

const KEY = randomBytes(32);
const PUBLISHED = 'https://dlv.example.com';
const sha256 = (text: string) => createHash('sha256').update(text).digest();

/** The opt-outs as migration 0035 kept them: the unkeyed SHA-256 of `channel:normalised address`. */
const BEFORE = [
  { channel: 'email', address: 'jane.doe@example.com', source: 'link', at: '2026-01-05T10:00:00Z' },
  { channel: 'email', address: 'clicked@example.com', source: 'one_click', at: '2026-02-01T08:30:00Z' },
  { channel: 'sms', address: '+33612345678', source: 'operator', at: '2026-03-01T12:00:00Z' },
  { channel: 'sms', address: '+33698765432', source: 'sms_stop', at: '2026-03-02T12:00:00Z' },
] as const;

/** A link as the service wrote it before: channel byte, unkeyed digest, MAC under unsubscribe_key. */
function linkOfBefore(secret: Buffer, channel: 'email' | 'sms', address: string): string {
  const body = Buffer.concat([Buffer.from([channel === 'email' ? 1 : 2]), sha256(`${channel}:${address}`)]);
  return Buffer.concat([body, createHmac('sha256', secret).update(body).digest().subarray(0, 16)]).toString(
    'base64url',
  );
}

const rowsOf = async (pool: Pool) =>
  (
    await pool.query<{
      channel: string;
      address_hash: Buffer;
      source: string;
      created_at: Date;
      keyed: boolean;
    }>('SELECT channel, address_hash, source, created_at, keyed FROM recipient_opt_outs ORDER BY created_at')
  ).rows;

describe('migration 0040: the opt-out list keyed with OPT_OUT_KEY', () => {
  let db: MigrationDatabase;
  let deps: Deps;
  let app: FastifyInstance;
  const links: Record<string, string> = {};

  beforeAll(async () => {
    db = await migrationDatabase('0040');
    await db.migrateBefore();
    for (const row of BEFORE)
      await db.pool.query(
        'INSERT INTO recipient_opt_outs (channel, address_hash, source, created_at) VALUES ($1, $2, $3, $4)',
        [row.channel, sha256(`${row.channel}:${row.address}`), row.source, row.at],
      );
    const secret = await serverSecretsRepository(db.pool).getOrCreate('unsubscribe_key');
    links.optedOut = linkOfBefore(secret, 'email', 'jane.doe@example.com');
    links.notYet = linkOfBefore(secret, 'email', 'still-here@example.com');
    await db.migrateIt();
    await migrate(db.pool); // any later migration
    deps = createDeps(testConfig({ databaseUrl: db.url, optOutKey: KEY, publicBaseUrl: PUBLISHED }), db.pool);
    app = await buildApp(deps);
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('counts the opt-outs of before from the moment it is applied, before the service keyed them', async () => {
    expect((await rowsOf(db.pool)).map((r) => r.keyed)).toEqual([false, false, false, false]);
    for (const row of BEFORE)
      expect(await deps.recipientOptOuts.isOptedOut(row.channel, row.address), row.address).toBe(true);
    expect(await deps.recipientOptOuts.isOptedOut('email', 'Jane.Doe@EXAMPLE.com')).toBe(true);
    expect(await deps.recipientOptOuts.isOptedOut('email', 'someone-else@example.com')).toBe(false);
  });

  it('the service published without OPT_OUT_KEY refuses to start, in a sentence, and keys nothing', async () => {
    const refused = startService('migrate', { DATABASE_URL: db.url, PUBLIC_BASE_URL: PUBLISHED });
    expect((await refused.exit).code).toBe(1);
    expect(refused.stderr()).toMatch(
      /^configuration error: OPT_OUT_KEY is required when PUBLIC_BASE_URL is https: 64 hexadecimal characters/m,
    );
    expect((await rowsOf(db.pool)).every((r) => !r.keyed)).toBe(true);
  }, 60_000);

  it('its start-up with OPT_OUT_KEY keys every row: no unkeyed digest is left, each request keeps its source and time', async () => {
    const started = startService('migrate', {
      DATABASE_URL: db.url,
      PUBLIC_BASE_URL: PUBLISHED,
      OPT_OUT_KEY: KEY.toString('hex'),
    });
    expect((await started.exit).code, started.stderr()).toBe(0);
    expect(started.logLines().find((l) => l.keyed)).toMatchObject({ keyed: 4 });

    const rows = await rowsOf(db.pool);
    expect(rows).toHaveLength(4);
    for (const [i, row] of BEFORE.entries()) {
      const digest = sha256(`${row.channel}:${row.address}`);
      expect(rows[i]).toEqual({
        channel: row.channel,
        address_hash: createHmac('sha256', KEY).update(digest).digest(),
        source: row.source,
        created_at: new Date(row.at),
        keyed: true,
      });
      // A guessed address can no longer be checked against the table without the key.
      expect(rows.some((r) => r.address_hash.equals(digest))).toBe(false);
    }
    for (const row of BEFORE)
      expect(await deps.recipientOptOuts.isOptedOut(row.channel, row.address), row.address).toBe(true);
    // START lifts a STOP, never the operator's opt-out.
    await deps.smsReplies.received('+33698765432', 'START');
    expect(await deps.recipientOptOuts.isOptedOut('sms', '+33698765432')).toBe(false);
    await deps.smsReplies.received('+33612345678', 'START');
    expect(await deps.recipientOptOuts.isOptedOut('sms', '+33612345678')).toBe(true);

    // A second start has nothing left to key.
    const again = startService('migrate', { DATABASE_URL: db.url, OPT_OUT_KEY: KEY.toString('hex') });
    expect((await again.exit).code, again.stderr()).toBe(0);
    expect(again.logLines().some((l) => l.keyed)).toBe(false);
  }, 90_000);

  it('links already in mailboxes keep working: the page says done, a one-click POST opts out under the keyed digest', async () => {
    const done = await app.inject({
      method: 'GET',
      url: `/unsubscribe/${links.optedOut}`,
      headers: { 'accept-language': 'en' },
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('You are unsubscribed');

    const asked = await app.inject({ method: 'GET', url: `/unsubscribe/${links.notYet}` });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('<button');
    const posted = await app.inject({
      method: 'POST',
      url: `/unsubscribe/${links.notYet}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(posted.statusCode).toBe(200);
    expect(await optOutSource(deps, 'email', 'still-here@example.com')).toBe('one_click');
    expect(await deps.recipientOptOuts.isOptedOut('email', 'still-here@example.com')).toBe(true);
  });

  it('a process with another key, or none, refuses to use the list rather than miss its opt-outs', async () => {
    const other = createDeps(
      testConfig({ databaseUrl: db.url, optOutKey: randomBytes(32), publicBaseUrl: PUBLISHED }),
      db.pool,
    );
    await expect(other.recipientOptOuts.isOptedOut('email', 'jane.doe@example.com')).rejects.toThrow(
      /^OPT_OUT_KEY is not the key the recipients' opt-out list is kept under: every instance and dlv need the same OPT_OUT_KEY/,
    );
    const none = createDeps(testConfig({ databaseUrl: db.url, optOutKey: null }), db.pool);
    await expect(none.recipientOptOuts.optOut('email', 'x@example.com', 'operator')).rejects.toThrow(
      /^OPT_OUT_KEY is not set, but the recipients' opt-out list is kept under it/,
    );
    // dlv as an operator runs it, without the service's OPT_OUT_KEY: a sentence, nothing written.
    const cli = await runDlv(['recipients', 'opt-out', '--email', 'cli@example.com'], {
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/OPT_OUT_KEY is not set, but the recipients' opt-out list is kept under it/);
    const withKey = await runDlv(['recipients', 'opt-out', '--email', 'cli@example.com'], {
      DATABASE_URL: db.url,
      LOG_LEVEL: 'silent',
      OPT_OUT_KEY: KEY.toString('hex'),
    });
    const generated = await db.pool.query("SELECT 1 FROM server_secrets WHERE name = 'opt_out_key'");
    expect(generated.rowCount).toBe(0);
    expect(withKey.code, withKey.stderr).toBe(0);
    expect(await optOutSource(deps, 'email', 'cli@example.com')).toBe('operator');
  }, 60_000);
});

describe('the opt-out key without OPT_OUT_KEY (npm start, development)', () => {
  let db: MigrationDatabase;
  beforeAll(async () => {
    db = await migrationDatabase('0040');
    await migrate(db.pool);
  }, 120_000);
  afterAll(() => db?.drop());

  it('is generated once and kept in the database: the same after a restart and for every instance', async () => {
    const first = await optOutKeyring({ optOutKey: null, publicBaseUrl: null }, db.pool).ready();
    expect(first).toBe(0);
    const a = await optOutKeyring({ optOutKey: null, publicBaseUrl: null }, db.pool).key();
    const other = createPool(db.url, 1);
    try {
      const b = await optOutKeyring({ optOutKey: null, publicBaseUrl: 'http://localhost:3000' }, other).key();
      expect(b.equals(a)).toBe(true);
    } finally {
      await other.end();
    }
    expect(a.equals(await serverSecretsRepository(db.pool).getOrCreate('opt_out_key'))).toBe(true);
  });

  it('is refused once the service is published: it says how to move the generated key to OPT_OUT_KEY', async () => {
    await expect(
      optOutKeyring({ optOutKey: null, publicBaseUrl: PUBLISHED }, db.pool).ready(),
    ).rejects.toThrow(
      /^OPT_OUT_KEY is required when PUBLIC_BASE_URL is https; the opt-out list is kept under a key generated in the database while in development: set OPT_OUT_KEY to it \(SELECT encode\(value, 'hex'\) FROM server_secrets WHERE name = 'opt_out_key'\)/,
    );
    const generated = await serverSecretsRepository(db.pool).getOrCreate('opt_out_key');
    await expect(
      optOutKeyring({ optOutKey: randomBytes(32), publicBaseUrl: PUBLISHED }, db.pool).key(),
    ).rejects.toThrow(
      /^OPT_OUT_KEY is not the key the recipients' opt-out list is kept under: that one was generated in the database\. Set OPT_OUT_KEY to it/,
    );
    expect(await optOutKeyring({ optOutKey: generated, publicBaseUrl: PUBLISHED }, db.pool).ready()).toBe(0);
  });
});
