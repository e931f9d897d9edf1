import type { Config } from '../config.ts';
import { type EmbeddedDatabase, openEmbeddedDatabase } from '../infra/embedded-postgres.ts';
import { createPool, type Pool, type PoolOptions } from './pool.ts';

export interface Database {
  pool: Pool;
  /** Present when DATABASE_URL is unset and the embedded PostgreSQL of DATA_DIR is used. */
  embedded: EmbeddedDatabase | null;
  close(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded cluster of DATA_DIR (started, or joined if running). */
export async function openDatabase(
  config: Config,
  poolSize = 20,
  poolOptions: PoolOptions = {},
  /** false: an embedded DATA_DIR without a database is refused, not given a new one (`dlv`). */
  createEmbedded = true,
): Promise<Database> {
  const embedded = config.databaseUrl
    ? null
    : await openEmbeddedDatabase(config.dataDir, {
        systemDir: config.embeddedPgRootDir,
        // Only a DATA_DIR nobody chose moves: one the operator set is refused in a sentence instead.
        clusterMayMove: config.dataDirIsDefault,
        mayCreate: createEmbedded,
      });
  const pool = createPool(config.databaseUrl ?? embedded!.url, poolSize, {
    statementTimeoutMs: config.databaseStatementTimeoutMs,
    ...poolOptions,
  });
  return {
    pool,
    embedded,
    async close() {
      await pool.end().catch(() => {});
      await embedded?.stop();
    },
  };
}
