import type pg from 'pg';
import { Gauge, Histogram, type Registry } from 'prom-client';
import { PREFIX } from './names.ts';

/** Seconds to get a client: almost always ~0; the upper ones mean the pool is too small. */
const ACQUIRE_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Each PostgreSQL pool of the process, by name (`api`, `worker`): its connections, busy or idle,
 * the callers waiting for one, and how long getting one took.
 */
export function poolMetrics(registry: Registry) {
  const pools = new Map<string, pg.Pool>();
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Open connections of the pool, by state (in_use, idle)',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, pool] of pools) {
        this.labels(name, 'idle').set(pool.idleCount);
        this.labels(name, 'in_use').set(pool.totalCount - pool.idleCount);
      }
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_max_connections`,
    help: 'The most connections the pool opens',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, pool] of pools) this.labels(name).set(pool.options.max ?? 10);
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_waiting_clients`,
    help: 'Callers waiting for a connection of the pool right now',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, pool] of pools) this.labels(name).set(pool.waitingCount);
    },
  });
  const acquire = new Histogram({
    name: `${PREFIX}db_pool_acquire_seconds`,
    help: 'Time to get a connection from the pool (queries included: each takes one)',
    labelNames: ['pool'] as const,
    buckets: ACQUIRE_BUCKETS,
    registers: [registry],
  });

  return {
    /** Watches `pool` under `name`; its checkouts are timed from now on. */
    observe(pool: pg.Pool, name: string): void {
      pools.set(name, pool);
      timeCheckouts(pool, acquire.labels(name));
    },
  };
}

/**
 * Times every checkout of `pool`: `pool.query` and graphile-worker both go through `connect`, so an
 * own `connect` that calls the class's (looked up at each call: tracing may wrap it later) sees them all.
 */
function timeCheckouts(pool: pg.Pool, histogram: { observe(seconds: number): void }): void {
  if (Object.hasOwn(pool, 'connect')) return; // already timed (a second name for the same pool)
  type Done = (err: Error | undefined, client: pg.PoolClient | undefined, release: () => void) => void;
  const classConnect = () => Object.getPrototypeOf(pool).connect as (callback?: Done) => unknown;
  const connect = function (this: pg.Pool, callback?: Done) {
    const started = performance.now();
    const observe = () => histogram.observe((performance.now() - started) / 1000);
    if (callback) {
      return classConnect().call(this, ((err, client, release) => {
        observe();
        callback(err, client, release);
      }) as Done);
    }
    return (classConnect().call(this) as Promise<pg.PoolClient>).then(
      (client: pg.PoolClient) => {
        observe();
        return client;
      },
      (err: unknown) => {
        observe();
        throw err;
      },
    );
  };
  Object.defineProperty(pool, 'connect', { value: connect, writable: true, configurable: true });
}
