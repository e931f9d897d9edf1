import { migrate, pendingMigrations } from '../db/migrate.ts';
import { isConnectionError, type Pool } from '../db/pool.ts';

export interface DatabaseReadyOptions {
  pool: Pool;
  /** Apply the migrations (MIGRATE_ON_START=1, or the embedded database), else wait for a migrate job. */
  migrate: boolean;
  log: { info(fields: object, message: string): void; warn(fields: object, message: string): void };
  /** Called once, the first time the database is not ready: the caller starts serving its probes. */
  onWait?: () => Promise<void>;
  /** Between attempts (1 s by default). */
  retryMs?: number;
  /** Set by shutdown: stop waiting. */
  stopped?: () => boolean;
}

/**
 * Resolves once the database answers and its migrations are current: applied here, or (with
 * MIGRATE_ON_START=0) by the one-shot migrate job this process waits for. PostgreSQL not there yet
 * is waited for rather than fatal, so an orchestrator starting everything at once converges; a
 * migration that fails is fatal (thrown): a half-migrated database must never look healthy.
 * Returns the migrations this process applied.
 */
export async function untilDatabaseReady(options: DatabaseReadyOptions): Promise<string[]> {
  let waiting = false;
  let lastReason = '';
  for (;;) {
    let reason: string;
    try {
      if (options.migrate) return (await migrate(options.pool)).applied;
      const pending = await pendingMigrations(options.pool);
      if (pending.length === 0) return [];
      reason = `${pending.length} migration(s) not applied yet (${pending[0]}…); run the migrate job (node dist/service.js migrate)`;
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      reason = `database unreachable: ${(err as Error).message}`;
    }
    if (reason !== lastReason) {
      options.log.warn({ waitingFor: 'database' }, `not ready: ${reason}; /readyz answers 503 meanwhile`);
      lastReason = reason;
    }
    if (!waiting) {
      waiting = true;
      await options.onWait?.();
    }
    await new Promise((resolve) => setTimeout(resolve, options.retryMs ?? 1000));
    // Shutdown has begun: it closes the probes and the pool and exits; nothing after this must run.
    if (options.stopped?.()) await new Promise<never>(() => {});
  }
}
