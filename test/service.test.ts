import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '../src/db/pool.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { createDeps } from '../src/deps.ts';
import { createBrandWithKey, testConfig, testDatabaseUrl } from './support/app.ts';
import { createScratchDatabase } from './support/scratch-database.ts';
import {
  freePort,
  listeningPort,
  type ServiceProcess,
  startService,
  until,
} from './support/service-process.ts';

// The compiled program in each of its modes (issue #25): node dist/service.js api|worker|migrate.
// test/support/build-setup.ts rebuilt dist/ before the run when it was older than src/.

const running: ServiceProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  for (const cleanup of cleanups) await cleanup();
});

function start(mode: string, env: Record<string, string>): ServiceProcess {
  const service = startService(mode, env);
  running.push(service);
  return service;
}

async function json(url: string): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function emptyDatabase(): Promise<string> {
  const database = await createThrowawayDatabase(testDatabaseUrl(), 'dlv_service');
  cleanups.push(() => database.drop());
  return database.url;
}

async function appliedMigrations(url: string): Promise<number> {
  const pool = createPool(url, 1);
  try {
    return (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations')).rows[0]!.n;
  } finally {
    await pool.end();
  }
}

describe('node dist/service.js migrate', () => {
  it('applies the migrations, says which in a JSON line, exits 0; a second run applies none', async () => {
    const url = await emptyDatabase();
    const first = start('migrate', { DATABASE_URL: url });
    expect((await first.exit).code, first.stderr()).toBe(0);
    const [line] = first.logLines();
    expect(line!.applied).toEqual(expect.arrayContaining(['0001_brands_and_keys.sql']));
    expect(await appliedMigrations(url)).toBe((line!.applied as string[]).length);

    const second = start('migrate', { DATABASE_URL: url });
    expect((await second.exit).code, second.stderr()).toBe(0);
    expect(second.logLines()[0]).toMatchObject({ applied: [], msg: 'database is up to date' });
  }, 90_000);

  it('exits non-zero when the database cannot be reached', async () => {
    const port = await freePort();
    const failed = start('migrate', { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none` });
    expect((await failed.exit).code).not.toBe(0);
    expect(failed.stderr()).toMatch(/ECONNREFUSED/);
  }, 60_000);
});

describe('node dist/service.js api', () => {
  it('answers /livez and /readyz, names its connections dlv-api, and on SIGTERM fails readiness at once while still serving', async () => {
    const api = start('api', { DATABASE_URL: testDatabaseUrl(), PORT: '0', SHUTDOWN_DRAIN_MS: '8000' });
    const port = await listeningPort(api);
    const base = `http://127.0.0.1:${port}`;
    expect(await json(`${base}/livez`)).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await json(`${base}/readyz`)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', migrations: 'current' } },
    });
    const pool = createPool(testDatabaseUrl(), 1);
    try {
      const named = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'dlv-api'",
      );
      expect(named.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await pool.end();
    }

    api.child.kill('SIGTERM');
    await until(async () => (await fetch(`${base}/readyz`)).status === 503, 'readiness to fail');
    expect((await json(`${base}/readyz`)).body).toEqual({ status: 'draining', checks: {} });
    // Still serving during the drain: the load balancer is taking the instance out meanwhile.
    expect((await fetch(`${base}/public/v1/ping`)).status).toBe(200);
    expect((await fetch(`${base}/livez`)).status).toBe(200);
    expect(await api.exit).toEqual({ code: 0, signal: null });
    expect(api.logLines().map((l) => l.msg)).toContain(
      'shutting down: /readyz fails from now, then the server drains',
    );
  }, 90_000);

  it('with the database unreachable: alive, not ready (503), and it does not crash', async () => {
    const closed = await freePort();
    const api = start('api', { DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/none`, PORT: '0' });
    const port = await listeningPort(api);
    expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
    expect(await json(`http://127.0.0.1:${port}/readyz`)).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'unreachable', migrations: 'unknown' } },
    });
    expect(api.child.exitCode).toBeNull();
    api.child.kill('SIGTERM');
    expect((await api.exit).code).toBe(0);
  }, 90_000);

  it('MIGRATE_ON_START=0 on an unmigrated database: 503 naming the pending migrations, ready once the migrate job ran', async () => {
    const url = await emptyDatabase();
    const port = await freePort();
    const api = start('api', { DATABASE_URL: url, PORT: String(port), MIGRATE_ON_START: '0' });
    await api.waitForLog((l) => String(l.msg).startsWith('not ready: '));
    await until(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 503, 'the probes');
    const waiting = await json(`http://127.0.0.1:${port}/readyz`);
    expect(waiting.body).toMatchObject({
      status: 'unavailable',
      checks: { database: 'ok', migrations: 'pending' },
    });
    expect(waiting.body.pending).toContain('0001_brands_and_keys.sql');
    expect(await appliedMigrations(url).catch(() => 0)).toBe(0); // it migrated nothing itself

    const migrate = start('migrate', { DATABASE_URL: url });
    expect((await migrate.exit).code, migrate.stderr()).toBe(0);
    await api.waitForLog((l) => l.msg === 'service ready');
    expect(await json(`http://127.0.0.1:${port}/readyz`)).toMatchObject({
      status: 200,
      body: { status: 'ready' },
    });
    expect((await fetch(`http://127.0.0.1:${port}/public/v1/ping`)).status).toBe(200);
  }, 120_000);

  it('Redis down: requests pass (rate limits fail open), one log line rather than one per request, readiness "degraded"', async () => {
    const deps = createDeps(testConfig(), createPool(testDatabaseUrl(), 2));
    const brand = await createBrandWithKey(deps);
    await deps.pool.end();
    const closed = await freePort();
    const api = start('api', {
      DATABASE_URL: testDatabaseUrl(),
      PORT: '0',
      REDIS_URL: `redis://127.0.0.1:${closed}`,
      RATE_LIMIT_PER_SECOND: '50',
    });
    const base = `http://127.0.0.1:${await listeningPort(api)}`;
    for (let i = 0; i < 30; i++) {
      const me = await fetch(`${base}/public/v1/me`, { headers: brand.headers });
      expect(me.status).toBe(200);
    }
    const readiness = await json(`${base}/readyz`);
    expect(readiness).toEqual({
      status: 200,
      body: { status: 'degraded', checks: { database: 'ok', migrations: 'current', redis: 'failing_open' } },
    });
    const outageLines = api.logLines().filter((l) => String(l.msg).includes('Redis unavailable'));
    expect(outageLines).toHaveLength(1);
    expect(outageLines[0]).toMatchObject({ level: 40, redis: 'unavailable' });
  }, 90_000);
});

/** A worker writes links: to the API's address, which it is given here (else it refuses to start). */
const WORKER_ENV = { PUBLIC_BASE_URL: 'http://127.0.0.1:3000' };

describe('a port already in use', () => {
  it("is said in one sentence naming the port and how to choose another (PORT, the worker's PORT, METRICS_PORT), with no stack", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = String((holder.address() as AddressInfo).port);
    // The worker's runner starts before its probes listen: on the shared database it could take
    // another test file's jobs in that moment and die holding them.
    const own = await createScratchDatabase();
    cleanups.push(() => own.drop());
    try {
      const cases: { mode: string; env: Record<string, string>; says: string }[] = [
        { mode: 'api', env: { PORT: taken }, says: `port ${taken} (PORT) is already in use on 127.0.0.1` },
        {
          mode: 'worker',
          env: { PORT: taken, ...WORKER_ENV, DATABASE_URL: own.url },
          says: `port ${taken} (PORT) is already in use on 127.0.0.1`,
        },
        {
          mode: 'api',
          env: { PORT: '0', METRICS_PORT: taken },
          says: `port ${taken} (METRICS_PORT) is already in use on 127.0.0.1`,
        },
      ];
      for (const { mode, env, says } of cases) {
        const failed = start(mode, { DATABASE_URL: testDatabaseUrl(), ...env });
        expect((await failed.exit).code, failed.stderr()).toBe(1);
        expect(failed.stderr()).toContain(`cannot listen: ${says}`);
        expect(failed.stderr()).toMatch(/choose another port with (PORT|METRICS_PORT)=<port>/);
        // A sentence, not Node's error with its stack.
        expect(failed.stderr()).not.toMatch(/^\s+at /m);
        expect(failed.stderr()).not.toContain('EADDRINUSE');
      }
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 120_000);
});

describe('node dist/service.js worker', () => {
  it('logs JSON lines at LOG_LEVEL (no debug lines at info), serves /livez and /readyz on PORT, stops on SIGTERM', async () => {
    const scratch = await createScratchDatabase();
    cleanups.push(() => scratch.drop());
    const atInfo = start('worker', {
      ...WORKER_ENV,
      DATABASE_URL: scratch.url,
      PORT: '0',
      LOG_LEVEL: 'info',
    });
    const port = await listeningPort(atInfo);
    await atInfo.waitForLog((l) => l.msg === 'worker started');
    expect(await json(`http://127.0.0.1:${port}/readyz`)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', migrations: 'current' } },
    });
    expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
    atInfo.child.kill('SIGTERM');
    expect((await atInfo.exit).code).toBe(0);
    const infoLines = atInfo.logLines(); // every stdout line parses as JSON
    expect(infoLines.length).toBeGreaterThan(0);
    expect(infoLines.filter((l) => (l.level as number) < 30)).toEqual([]);
    expect(infoLines.some((l) => String(l.msg).startsWith('Worker connected'))).toBe(true);

    const atDebug = start('worker', {
      ...WORKER_ENV,
      DATABASE_URL: scratch.url,
      PORT: '0',
      LOG_LEVEL: 'debug',
    });
    await atDebug.waitForLog((l) => l.msg === 'worker started');
    atDebug.child.kill('SIGTERM');
    expect((await atDebug.exit).code).toBe(0);
    // graphile-worker's own lines, mapped to pino with their scope.
    expect(atDebug.logLines().filter((l) => l.level === 20 && l.label === 'worker').length).toBeGreaterThan(
      0,
    );

    const quietPort = await freePort();
    const quiet = start('worker', {
      ...WORKER_ENV,
      DATABASE_URL: scratch.url,
      PORT: String(quietPort),
      LOG_LEVEL: 'warn',
    });
    await until(async () => (await fetch(`http://127.0.0.1:${quietPort}/readyz`)).ok, 'the quiet worker');
    quiet.child.kill('SIGTERM');
    await quiet.exit;
    expect(quiet.logLines().filter((l) => (l.level as number) < 40)).toEqual([]);
  }, 120_000);
});
