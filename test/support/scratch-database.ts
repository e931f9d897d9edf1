import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { createThrowawayDatabase } from '../../src/db/throwaway-database.ts';
import { buildTestApp, type TestApp, testDatabaseUrl } from './app.ts';

/**
 * A migrated database of its own, for the few tests that change global state (the default grid,
 * issuing every brand's invoices) and must not disturb test files running beside them.
 */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const database = await createThrowawayDatabase(testDatabaseUrl(), 'dlv_scratch');
  const pool = createPool(database.url, 2);
  await migrate(pool);
  await pool.end();
  return database;
}

/** A test app on a scratch database of its own (see above), whose URL it gives; close() drops the database too. */
export type ScratchTestApp = TestApp & { databaseUrl: string };

export async function buildScratchTestApp(
  options: Parameters<typeof buildTestApp>[0] = {},
): Promise<ScratchTestApp> {
  const scratch = await createScratchDatabase();
  let t: TestApp;
  try {
    t = await buildTestApp({ ...options, config: { ...options.config, databaseUrl: scratch.url } });
  } catch (err) {
    await scratch.drop();
    throw err;
  }
  return {
    ...t,
    databaseUrl: scratch.url,
    async close() {
      await t.close();
      await scratch.drop();
    },
  };
}
