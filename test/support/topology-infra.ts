import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { createThrowawayDatabase } from '../../src/db/throwaway-database.ts';
import { freePort } from '../../src/infra/embedded-postgres.ts';
import { createOwnedCluster } from '../chaos/harness.ts';

/**
 * What the topology runs on, on loopback: a PostgreSQL database and a Redis of the test's own, and
 * the system binaries it needs (haproxy, redis-server).
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A binary on PATH (or in /usr/sbin, where Debian puts haproxy), or null. */
export function findBinary(name: string): string | null {
  for (const dir of [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin']) {
    const file = path.join(dir, name);
    try {
      execFileSync('test', ['-x', file]);
      return file;
    } catch {
      // not there
    }
  }
  return null;
}

function answers(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A throw-away database: on TEST_DATABASE_URL's server or the machine's 127.0.0.1:5432, else a cluster of its own. */
export async function topologyDatabase(): Promise<{ url: string; where: string; drop(): Promise<void> }> {
  const server =
    process.env.TEST_DATABASE_URL ??
    ((await answers(5432)) ? 'postgres://postgres@127.0.0.1:5432/postgres' : null);
  if (server) {
    const database = await createThrowawayDatabase(server, 'dlv_topology');
    return { ...database, where: `a throw-away database on ${new URL(server).host}` };
  }
  const cluster = await createOwnedCluster();
  return { url: cluster.url, where: 'a PostgreSQL cluster of its own', drop: () => cluster.destroy() };
}

/** A redis-server of the test's own on a free port (nothing persisted), else TEST_REDIS_URL, else none. */
export async function topologyRedis(): Promise<{ url: string; where: string; stop(): Promise<void> } | null> {
  const binary = findBinary('redis-server');
  if (!binary) {
    const url = process.env.TEST_REDIS_URL;
    return url ? { url, where: url, stop: async () => {} } : null;
  }
  const port = await freePort();
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (const deadline = Date.now() + 10_000; !(await answers(port)); await sleep(50)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('redis-server did not start');
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    where: `redis-server on port ${port}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
