import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { freePort, hydrateBinarySymlinks } from '../../src/infra/embedded-postgres.ts';

export { freePort };

import { migrate } from '../../src/db/migrate.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps } from '../../src/deps.ts';
import { testOperator } from '../support/audit.ts';
import { type SpawnedServer, spawnServer } from '../support/spawn-server.ts';

/**
 * What the chaos tests share: a PostgreSQL cluster the test owns (initdb/pg_ctl from the
 * embedded-postgres binaries, so it can be crashed and restarted at will), the real server as a
 * child process, and an HTTP client that records what was acknowledged.
 */

const require = createRequire(import.meta.url);
// The package exports only its entry (dist/index.js), not its package.json.
const PACKAGE_DIR = path.resolve(
  path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
  '..',
);
const BIN = path.join(PACKAGE_DIR, 'native', 'bin');

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** PostgreSQL refuses to run as root: as root, its binaries run as the `postgres` user. */
async function postgresIds(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) =>
    new Promise<number>((resolve, reject) =>
      execFile('id', [flag, 'postgres'], (err, stdout) =>
        err ? reject(new Error('running as root needs a `postgres` user')) : resolve(Number(stdout.trim())),
      ),
    );
  return { uid: await id('-u'), gid: await id('-g') };
}

export interface OwnedCluster {
  url: string;
  port: number;
  /** `pg_ctl restart -m immediate`: a crash (no checkpoint) and crash recovery. */
  restartImmediate(): Promise<void>;
  /** `pg_ctl stop -m immediate`: every backend dies at once, nothing listens until start(). */
  stopImmediate(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster (if running) and removes its directory. */
  destroy(): Promise<void>;
  log(): Promise<string>;
}

/** A brand-new cluster in a temp directory: trust auth on 127.0.0.1, a random port, database `dlv`. */
export async function createOwnedCluster(): Promise<OwnedCluster> {
  await hydrateBinarySymlinks();
  const ids = await postgresIds();
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'dlv-chaos-'));
  const dataDir = path.join(tempDir, 'pg');
  const logFile = path.join(tempDir, 'postgres.log');
  if (ids) await chown(tempDir, ids.uid, ids.gid);
  const port = await freePort();

  const run = (bin: string, args: string[]) =>
    new Promise<string>((resolve, reject) => {
      execFile(
        path.join(BIN, bin),
        args,
        { cwd: tempDir, env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' }, ...(ids ?? {}), timeout: 60_000 },
        (err, stdout, stderr) =>
          err
            ? reject(new Error(`${bin} ${args.join(' ')} failed: ${err.message}\n${stderr}`))
            : resolve(stdout),
      );
    });
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', dataDir, '-l', logFile, ...args]);
  let running = false;

  try {
    await run('initdb', [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    // Durability settings stay at their defaults (fsync, synchronous_commit on): the test is about
    // acknowledged commits surviving a crash.
    await appendFile(
      path.join(dataDir, 'postgresql.conf'),
      [
        '',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        "unix_socket_directories = ''",
        'max_connections = 200',
        '',
      ].join('\n'),
    );
    await pgCtl('start', '-w', '-t', '30');
    running = true;
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE dlv');
    await admin.end();
  } catch (err) {
    if (running) await pgCtl('stop', '-m', 'immediate', '-w').catch(() => {});
    await rm(tempDir, { recursive: true, force: true });
    throw err;
  }

  return {
    url: `postgres://postgres@127.0.0.1:${port}/dlv`,
    port,
    async restartImmediate() {
      await pgCtl('restart', '-m', 'immediate', '-w', '-t', '30');
    },
    async stopImmediate() {
      await pgCtl('stop', '-m', 'immediate', '-w');
      running = false;
    },
    async start() {
      await pgCtl('start', '-w', '-t', '30');
      running = true;
    },
    async destroy() {
      if (existsSync(path.join(dataDir, 'postmaster.pid'))) {
        await pgCtl('stop', '-m', 'immediate', '-w').catch(() => {});
      }
      await rm(tempDir, { recursive: true, force: true });
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
  };
}

export interface TestBrand {
  brandId: string;
  key: string;
}

/** Migrates the cluster's database and creates a brand with an orders key, as `dlv` would. */
async function prepareDatabase(url: string): Promise<TestBrand> {
  const pool = createPool(url, 2);
  try {
    await migrate(pool);
    const deps = createDeps(loadConfig({ DATABASE_URL: url }), pool);
    const brand = await deps.brands.create(
      { name: 'Chaos', pickupAddress: '1 rue de Rivoli 75001 Paris' },
      testOperator,
    );
    const key = await deps.apiKeys.create(
      { brandId: brand.id, scopes: 'orders:read,orders:write' },
      testOperator,
    );
    return { brandId: brand.id, key: key.key };
  } finally {
    await pool.end();
  }
}

export type RunningApi = SpawnedServer;

/** `npm start`'s command on DATABASE_URL, resolved once the banner says it is listening. */
export function startApi(databaseUrl: string, port: number): Promise<RunningApi> {
  return spawnServer({ DATABASE_URL: databaseUrl, PORT: String(port), RATE_LIMIT_PER_SECOND: '0' });
}

export async function killApi(api: RunningApi, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (api.child.exitCode !== null || api.child.signalCode !== null) return;
  api.child.kill(signal);
  await api.exited;
}

function orderBody(reference: string) {
  return {
    customer_email: 'jane@example.com',
    delivery_address: '12 rue Oberkampf 75011 Paris',
    delivery_recipient: 'Jane Doe',
    delivery_phone: '06 12 34 56 78',
    amount_eur: 49.9,
    reference,
  };
}

/** What one HTTP attempt came to: a response (any status), or no answer at all. */
export type Attempt =
  | { kind: 'response'; status: number; body: any; replayed: boolean; ms: number }
  | { kind: 'no-answer'; error: string; ms: number };

async function attempt(url: string, init: RequestInit, timeoutMs: number): Promise<Attempt> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text for the assertion message
    }
    return {
      kind: 'response',
      status: res.status,
      body,
      replayed: res.headers.get('idempotent-replayed') === 'true',
      ms: Date.now() - started,
    };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return {
      kind: 'no-answer',
      error: cause?.code ?? cause?.message ?? (err as Error).name,
      ms: Date.now() - started,
    };
  }
}

export function postOrder(
  base: string,
  brand: TestBrand,
  idempotencyKey: string,
  timeoutMs = 15_000,
): Promise<Attempt> {
  return attempt(
    `${base}/orders`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${brand.key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(orderBody(idempotencyKey)),
    },
    timeoutMs,
  );
}

export function getJson(base: string, brand: TestBrand, pathname: string, timeoutMs = 15_000) {
  return attempt(`${base}${pathname}`, { headers: { authorization: `Bearer ${brand.key}` } }, timeoutMs);
}

/** Retries one creation with the same key and body until the API answers it (created or replayed). */
export async function retryUntilAnswered(
  base: string,
  brand: TestBrand,
  idempotencyKey: string,
  deadline: number,
): Promise<{ trackingRef: string; replayed: boolean; attempts: number }> {
  for (let attempts = 1; ; attempts++) {
    const result = await postOrder(base, brand, idempotencyKey);
    if (result.kind === 'response' && result.status === 200) {
      return { trackingRef: result.body.trackingRef, replayed: result.replayed, attempts };
    }
    // 409: the first attempt still holds the key's lock; 503: the database is not back yet.
    const retryable = result.kind === 'no-answer' || result.status === 409 || result.status === 503;
    if (!retryable) {
      throw new Error(`retry of ${idempotencyKey} got ${result.status}: ${JSON.stringify(result.body)}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`retry of ${idempotencyKey} still unanswered: ${JSON.stringify(result)}`);
    }
    await sleep(100);
  }
}

export interface DatabaseCheck {
  orders: number;
  /** References (= idempotency keys) with more than one order. */
  duplicates: number;
  /** Keys stored in idempotency_keys whose response names another order than the one created. */
  mismatchedKeys: number;
  storedKeys: number;
  refByReference: Map<string, string>;
}

/** What the brand has in the database, checked against the keys used (each order's reference is its key). */
export async function checkDatabase(url: string, brandId: string): Promise<DatabaseCheck> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const orders = await client.query<{ tracking_ref: string; reference: string }>(
      'SELECT tracking_ref, reference FROM orders WHERE brand_id = $1',
      [brandId],
    );
    const refByReference = new Map<string, string>();
    let duplicates = 0;
    for (const row of orders.rows) {
      if (refByReference.has(row.reference)) duplicates++;
      refByReference.set(row.reference, row.tracking_ref);
    }
    const keys = await client.query<{ key: string; tracking_ref: string | null }>(
      `SELECT key, response_body->>'trackingRef' AS tracking_ref FROM idempotency_keys WHERE brand_id = $1`,
      [brandId],
    );
    const mismatchedKeys = keys.rows.filter((k) => refByReference.get(k.key) !== k.tracking_ref).length;
    return {
      orders: orders.rowCount ?? 0,
      duplicates,
      mismatchedKeys,
      storedKeys: keys.rowCount ?? 0,
      refByReference,
    };
  } finally {
    await client.end();
  }
}

/** Runs the async clean-ups registered so far, last first, without letting one failure skip the rest. */
/**
 * Registers a suite's hooks: its own cluster with a migrated database and a brand before all tests,
 * and everything pushed on the returned cleanup stack (the cluster first of all) undone after.
 */
export function useOwnedCluster() {
  const cleanup = cleanupStack();
  const state = {} as { cluster: OwnedCluster; brand: TestBrand };
  beforeAll(async () => {
    state.cluster = await createOwnedCluster();
    cleanup.push(() => state.cluster.destroy());
    state.brand = await prepareDatabase(state.cluster.url);
  });
  afterAll(() => cleanup.run());
  return { state, cleanup };
}

function cleanupStack() {
  const steps: (() => Promise<unknown>)[] = [];
  return {
    push(step: () => Promise<unknown>) {
      steps.push(step);
    },
    async run() {
      while (steps.length > 0) await steps.pop()!().catch(() => {});
    },
  };
}
