import { Logger, runMigrations } from 'graphile-worker';
import type pg from 'pg';

/** The job queue's own schema (graphile_worker), versioned by the library itself. */
export async function migrateQueue(pool: pg.Pool): Promise<void> {
  await runMigrations({ pgPool: pool, logger: new Logger(() => () => {}) });
}
