import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR, migrate } from '../../src/db/migrate.ts';
import { createPool, type Pool } from '../../src/db/pool.ts';
import { createThrowawayDatabase } from '../../src/db/throwaway-database.ts';
import { testDatabaseUrl } from './app.ts';

export interface MigrationDatabase {
  url: string;
  pool: Pool;
  /** Applies every migration before the one under test: rows can then be written as they were. */
  migrateBefore(): Promise<unknown>;
  /** Applies the migration under test alone (none after it). */
  migrateIt(): Promise<unknown>;
  drop(): Promise<void>;
}

/** A database of its own for a migration's test (`migration`: its number, e.g. '0024'). */
export async function migrationDatabase(migration: string): Promise<MigrationDatabase> {
  const database = await createThrowawayDatabase(testDatabaseUrl(), `dlv_mig${migration}`);
  const pool = createPool(database.url, 2);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-mig-'));
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql'));
  const copyAndMigrate = async (keep: (file: string) => boolean) => {
    for (const file of files.filter(keep))
      await copyFile(path.join(MIGRATIONS_DIR, file), path.join(dir, file));
    return migrate(pool, dir);
  };
  return {
    url: database.url,
    pool,
    migrateBefore: () => copyAndMigrate((f) => f < migration),
    migrateIt: () => copyAndMigrate((f) => f.startsWith(`${migration}_`)),
    async drop() {
      await pool.end();
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
