import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { createThrowawayDatabase } from '../../src/db/throwaway-database.ts';
import { openEmbeddedDatabase } from '../../src/infra/embedded-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

/**
 * One fresh database per test run, on TEST_DATABASE_URL's server when given (CI covers the
 * machine's PostgreSQL 15 this way) or else on a throw-away embedded cluster. Tests never
 * truncate: each creates its own brand and key in this database.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | null = null;
  let adminUrl: string;
  let tempDir: string | null = null;
  if (serverUrl) {
    adminUrl = serverUrl;
  } else {
    tempDir = await mkdtemp(path.join(os.tmpdir(), 'dlv-test-'));
    const embedded = await openEmbeddedDatabase(tempDir, {
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    });
    stopEmbedded = embedded.stop;
    adminUrl = embedded.url;
  }
  const database = await createThrowawayDatabase(adminUrl, 'dlv_test');
  const pool = createPool(database.url, 2);
  await migrate(pool);
  await pool.end();
  project.provide('databaseUrl', database.url);

  return async () => {
    await database.drop();
    await stopEmbedded?.();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  };
}
