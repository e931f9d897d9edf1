import pg from 'pg';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything a repository can run a query on: the pool, or a client inside a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

// timestamptz arrives as Date (pg's default); int8 (counts) as number, since ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// `date` columns stay 'YYYY-MM-DD' strings: they are calendar days in Europe/Paris, not instants.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export function createPool(connectionString: string, max = 20): Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});
  return pool;
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
