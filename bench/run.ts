/**
 * `npm run bench`: starts what it needs (PostgreSQL from DATABASE_URL, else an embedded one in a
 * temp dir), runs every scenario next to its reference in the same run, and prints a table.
 * BENCH_SECONDS (default 8) sets each load's duration; BENCH_ONLY=rates,orders filters groups.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openEmbeddedDatabase } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { createDeps } from '../src/deps.ts';
import { formatTable, load, type Row, startServer } from './harness.ts';

async function prepareDatabase(): Promise<{ url: string; cleanup(): Promise<void> }> {
  let adminUrl = process.env.DATABASE_URL;
  let stop = async () => {};
  let dir: string | null = null;
  if (!adminUrl) {
    dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-bench-'));
    const embedded = await openEmbeddedDatabase(dir, { settings: { max_connections: '200' } });
    adminUrl = embedded.url;
    stop = embedded.stop;
  }
  const name = `dlv_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async cleanup() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      await stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

const only = process.env.BENCH_ONLY?.split(',');
const wants = (group: string) => !only || only.includes(group);

const db = await prepareDatabase();
const pool = createPool(db.url, 4);
await migrate(pool);
const deps = createDeps(loadConfig({ DATABASE_URL: db.url }), pool);
const brand = await deps.brands.create({ name: 'Bench brand', pickupAddress: '1 rue de Rivoli 75001 Paris' });
const key = await deps.apiKeys.create({
  brandId: brand.id,
  scopes: ['orders:read', 'orders:write', 'invoices:read'],
});
const auth = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };

const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_SECOND: '0' };
const api = await startServer('bench/servers/api-server.ts', env);
const bare = await startServer('bench/servers/bare-server.ts', {});
const rows: Row[] = [];
try {
  if (wants('rates')) {
    const body = JSON.stringify({
      delivery_zip: '75011',
      unit_type: 'parcel',
      unit_weight: '2kg',
      quantity: 2,
    });
    const bareResult = await load({
      url: `http://127.0.0.1:${bare.port}/bare`,
      method: 'POST',
      headers: auth,
      body,
    });
    const ratesResult = await load({
      url: `http://127.0.0.1:${api.port}/public/v1/rates`,
      method: 'POST',
      headers: auth,
      body,
    });
    rows.push({
      scenario: 'POST /rates',
      result: ratesResult,
      reference: { name: 'bare Fastify', result: bareResult },
      targetRatio: 0.5,
    });
  }
} finally {
  await api.stop();
  await bare.stop();
  await pool.end();
  await db.cleanup();
}

console.log(
  `\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
console.log(
  `Database: ${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}; 50 connections, ${process.env.BENCH_SECONDS ?? 8} s per load\n`,
);
console.log(formatTable(rows));
process.exit(0);
