/**
 * The backup procedure of docs/operations.md: `pg_dump -Fc` of a live database with orders and an
 * issued invoice, `pg_restore` into a new database, and an API started on the restored one serves
 * the same orders and invoices, byte for byte, to the same key (and finds its migrations current).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import {
  API,
  buildTestApp,
  createBrandWithKey,
  TEST_PICKUP_ADDRESS,
  type TestApp,
  type TestBrand,
} from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code) || 1 : 0, stdout, stderr }),
    );
  });
}

const major = (version: string) => Number(/(\d+)(?:\.\d+)?/.exec(version)?.[1]);

/** Why the installed pg_dump cannot dump this server (absent, or older than the server), or null. */
async function dumpUnavailable(url: string): Promise<string | null> {
  const tool = await run('pg_dump', ['--version']);
  if (tool.code !== 0) return 'pg_dump is not installed (postgresql-client)';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
  await client.end();
  const [toolMajor, serverMajor] = [major(tool.stdout.replace(/^\D+/, '')), major(rows[0]!.server_version)];
  return toolMajor < serverMajor
    ? `pg_dump ${toolMajor} cannot dump PostgreSQL ${serverMajor} (TEST_DATABASE_URL on a PostgreSQL ${toolMajor} runs it)`
    : null;
}

let source: ScratchTestApp;
let restored: { url: string; drop(): Promise<void> } | null = null;
let restoredApp: TestApp | null = null;
let dir: string;
let unavailable: string | null;
let now = new Date('2026-10-06T09:00:00Z');
const clock = () => now;

beforeAll(async () => {
  source = await buildScratchTestApp({ clock });
  unavailable = await dumpUnavailable(source.databaseUrl);
  if (unavailable) console.warn(`[backup-restore] skipped: ${unavailable}`);
  dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-backup-'));
});
afterAll(async () => {
  await restoredApp?.close();
  await restored?.drop();
  await source?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('pg_dump and pg_restore', () => {
  it('a restored database serves the same orders and invoices, and needs no migration', async (ctx) => {
    if (unavailable) return ctx.skip();
    const brand: TestBrand = await createBrandWithKey(source.deps, { name: 'Sauvegarde' });
    const refs: string[] = [];
    for (const [i, at] of [
      '2026-10-06T09:00:00Z',
      '2026-10-12T15:30:00Z',
      '2026-10-20T08:10:00Z',
    ].entries()) {
      now = new Date(at);
      const order = await source.deps.orders.create(
        { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
        {
          customer_email: 'a@b.fr',
          delivery_address: '12 rue Oberkampf 75011 Paris',
          reference: `backup-${i}`,
          ...(i === 1 ? { service: 'express', quantity: 2 } : {}),
        },
      );
      refs.push(order.trackingRef);
    }
    await source.deps.orders.setStatus(refs[2]!, 'picked_up', null, testOperator);
    now = new Date('2026-11-02T10:00:00Z');
    await source.deps.invoices.issueMonth('2026-10', testOperator);

    // The lists' cursor key (no CURSOR_SECRET here) is created in the database by the first list
    // served, as it long was before any real backup.
    expect(
      (await source.app.inject({ method: 'GET', url: `${API}/orders`, headers: brand.headers })).statusCode,
    ).toBe(200);

    const dump = path.join(dir, 'dlv.dump');
    const dumped = await run('pg_dump', [
      '-Fc',
      '--no-owner',
      '--file',
      dump,
      '--dbname',
      source.databaseUrl,
    ]);
    expect(dumped.code, dumped.stderr).toBe(0);
    restored = await createThrowawayDatabase(source.databaseUrl, 'dlv_restored');
    const restoring = await run('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      '--dbname',
      restored.url,
      dump,
    ]);
    expect(restoring.code, restoring.stderr).toBe(0);

    // The migrations are recorded with the data: nothing to apply on the restored database.
    const pool = createPool(restored.url, 2);
    try {
      expect((await migrate(pool)).applied).toEqual([]);
    } finally {
      await pool.end();
    }

    restoredApp = await buildTestApp({ clock, config: { databaseUrl: restored.url } });
    const invoices = await source.app.inject({
      method: 'GET',
      url: `${API}/invoices`,
      headers: brand.headers,
    });
    const issued = (invoices.json().invoices as { id: string; status: string; number: string | null }[]).find(
      (i) => i.status !== 'draft',
    );
    expect(issued?.number, invoices.body).toBeTruthy();
    const paths = [
      '/orders',
      '/orders?limit=2',
      ...refs.map((ref) => `/orders/${ref}`),
      '/invoices',
      `/invoices/${issued!.id}`,
    ];
    for (const url of paths) {
      const [before, after] = await Promise.all(
        [source.app, restoredApp.app].map((app) =>
          app.inject({ method: 'GET', url: `${API}${url}`, headers: brand.headers }),
        ),
      );
      expect(before!.statusCode, `${url}: ${before!.body}`).toBe(200);
      expect(after!.statusCode, url).toBe(200);
      // A cursor is sealed with a fresh nonce each time: compared below by what it leads to.
      const uncursored = (body: string) => body.replace(/"next_cursor":"[^"]+"/, '"next_cursor":"…"');
      expect(uncursored(after!.body), url).toBe(uncursored(before!.body));
    }
    // The next page's cursor, signed with the key kept in the database, is good on the restored one.
    const page = await source.app.inject({
      method: 'GET',
      url: `${API}/orders?limit=2`,
      headers: brand.headers,
    });
    const cursor = page.json().next_cursor as string;
    expect(cursor).toBeTruthy();
    const next = await restoredApp.app.inject({
      method: 'GET',
      url: `${API}/orders?limit=2&cursor=${encodeURIComponent(cursor)}`,
      headers: brand.headers,
    });
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().orders.map((o: { tracking_ref: string }) => o.tracking_ref)).toHaveLength(1);
  });
});
