import type pg from 'pg';

/** The job queue's own schema (graphile_worker), versioned by the library itself. */
export async function migrateQueue(pool: pg.Pool): Promise<void> {
  // Loaded here, not at import: an API that does not migrate (MIGRATE_ON_START=0) never loads the job runner.
  const { Logger, runMigrations } = await import('graphile-worker');
  await runMigrations({ pgPool: pool, logger: new Logger(() => () => {}) });
}
