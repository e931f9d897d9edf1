import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { createThrowawayDatabase } from '../../src/db/throwaway-database.ts';
import { testDatabaseUrl } from './app.ts';

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
