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
  let tempDir: string | null = null;
  try {
    let adminUrl: string;
    if (serverUrl) {
      adminUrl = serverUrl;
    } else {
      tempDir = await mkdtemp(path.join(os.tmpdir(), 'dlv-test-'));
      const embedded = await failOnUncaught(
        openEmbeddedDatabase(tempDir, {
          settings: {
            fsync: 'off',
            synchronous_commit: 'off',
            full_page_writes: 'off',
            max_connections: '300',
          },
          // As root, the binaries' copy (never the cluster: tempDir is open to the postgres user)
          // goes there, kept from run to run; never the machine's /var/lib/delivery-orders-api.
          systemDir: path.join(os.tmpdir(), 'dlv-test-embedded-postgres'),
        }),
      );
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
  } catch (err) {
    // Said here, in a sentence: a failed global set-up otherwise ended the run with exit 1 and no
    // word on why (issue #23).
    console.error(
      setupFailure(err, serverUrl ? 'TEST_DATABASE_URL' : `an embedded PostgreSQL in ${tempDir}`),
    );
    await stopEmbedded?.().catch(() => {});
    if (tempDir) await rm(tempDir, { recursive: true, force: true }).catch(() => {});
    throw err;
  }
}

/** What the run says when its database cannot be prepared: the cause, and the other way to run. */
export function setupFailure(err: unknown, on: string): string {
  const cause = err instanceof Error ? err.message : String(err);
  const instead =
    on === 'TEST_DATABASE_URL'
      ? 'Check that TEST_DATABASE_URL points to a running PostgreSQL its user may create databases on.'
      : 'Fix the cause above, or set TEST_DATABASE_URL to a running PostgreSQL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run the tests on it instead.';
  return `\nThe test database could not be prepared (on ${on}): ${cause}\n${instead}\n`;
}

/**
 * `work`, rejected by an exception thrown meanwhile outside it: embedded-postgres spawns its
 * binaries with no 'error' listener, so a failed spawn is thrown from nowhere, and the run used to
 * end there, silently.
 */
async function failOnUncaught<T>(work: Promise<T>): Promise<T> {
  let onUncaught: ((err: Error) => void) | undefined;
  const crashed = new Promise<never>((_, reject) => {
    onUncaught = reject;
    process.on('uncaughtException', onUncaught);
  });
  try {
    return await Promise.race([work, crashed]);
  } finally {
    process.removeListener('uncaughtException', onUncaught!);
  }
}
