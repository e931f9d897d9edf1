import { MIGRATIONS_DIR, pendingMigrations } from '../db/migrate.ts';
import type { Pool } from '../db/pool.ts';
import type { RedisHealth } from '../infra/rate-limit/redis-health.ts';

/** `GET /readyz`'s body: why this process may or may not take traffic. */
interface ReadinessReport {
  status: 'ready' | 'degraded' | 'draining' | 'unavailable';
  checks: {
    database?: 'ok' | 'unreachable';
    migrations?: 'current' | 'pending' | 'unknown';
    /** Present when REDIS_URL is set: `failing_open` while the rate limits let everything through. */
    redis?: 'ok' | 'failing_open';
  };
  /** The migrations not applied yet (MIGRATE_ON_START=0 before the migrate job ran). */
  pending?: string[];
}

/**
 * Whether this process should receive traffic: the database answers, its migrations are current,
 * and it is not shutting down. A load balancer or Kubernetes reads it through `/readyz`; `/livez`
 * only says the process runs (restarting a process because PostgreSQL is away would not help).
 */
export interface Readiness {
  report(): Promise<ReadinessReport>;
  /** From SIGTERM on: every report says `draining`, so traffic moves elsewhere before the server closes. */
  drain(): void;
}

export interface ReadinessOptions {
  pool: Pool;
  /** Null without REDIS_URL (in-memory rate limits cannot fail). */
  redis: RedisHealth | null;
  migrationsDir?: string;
  /** A probe must not hang on a saturated pool or a dead server: past this, the database is `unreachable`. */
  databaseTimeoutMs?: number;
}

/** How long `/readyz` waits for the database by default: a probe's own timeout must be longer. */
export const READINESS_DATABASE_TIMEOUT_MS = 2000;

export function createReadiness(options: ReadinessOptions): Readiness {
  const dir = options.migrationsDir ?? MIGRATIONS_DIR;
  const timeoutMs = options.databaseTimeoutMs ?? READINESS_DATABASE_TIMEOUT_MS;
  let draining = false;
  // Files do not change under a running process: once current, always current (no query per probe).
  let migrationsCurrent = false;

  const withinDeadline = <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };

  return {
    drain() {
      draining = true;
    },
    async report() {
      if (draining) return { status: 'draining', checks: {} };
      const checks: ReadinessReport['checks'] = {};
      let pending: string[] = [];
      try {
        if (migrationsCurrent) await withinDeadline(options.pool.query('SELECT 1'));
        else pending = await withinDeadline(pendingMigrations(options.pool, dir));
        checks.database = 'ok';
        migrationsCurrent = pending.length === 0;
        checks.migrations = migrationsCurrent ? 'current' : 'pending';
      } catch {
        checks.database = 'unreachable';
        checks.migrations = 'unknown';
      }
      if (options.redis) checks.redis = options.redis.failingOpen() ? 'failing_open' : 'ok';
      if (checks.database !== 'ok' || checks.migrations !== 'current') {
        return { status: 'unavailable', checks, ...(pending.length ? { pending } : {}) };
      }
      return { status: checks.redis === 'failing_open' ? 'degraded' : 'ready', checks };
    },
  };
}
