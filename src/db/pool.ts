import type * as Pg from 'pg';
import pg from './pg.ts';

export type Pool = Pg.Pool;
export type PoolClient = Pg.PoolClient;
/** Anything a repository can run a query on: the pool, or a client inside a transaction. */
export type Queryable = Pg.Pool | Pg.PoolClient;

// timestamptz arrives as Date (pg's default); int8 (counts) as number, since ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// `date` columns stay 'YYYY-MM-DD' strings: they are calendar days in Europe/Paris, not instants.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/** Whether `db` is the pool itself rather than one client (a transaction's). */
export function isPool(db: Queryable): db is Pool {
  return db instanceof pg.Pool;
}

export interface PoolOptions {
  /** PostgreSQL's `application_name`: which process a connection is in pg_stat_activity (`dlv-api`…). */
  applicationName?: string;
  /** `statement_timeout` of every connection, so one runaway query cannot hold a connection for ever. */
  statementTimeoutMs?: number;
}

export function createPool(connectionString: string, max = 20, options: PoolOptions = {}): Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  // A client losing its connection (server restart) must not crash the process: pg emits 'error'
  // on the client, and an 'error' event without a listener kills node. The pool listens only while a
  // client is idle; a checked-out client between two queries (inside a transaction) needs its own
  // listener. The error then surfaces on its next query, and the pool discards it on release.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

// Connection-level failures (server down, restarting, refusing or dropping connections): nothing
// about the work itself, which can be retried as is once the server is back.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** Whether `err` says the database could not be reached (as opposed to a query failing). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/.test(
    err.message,
  );
}

/** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
export async function withTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
