/**
 * `npm run bench`: starts what it needs (PostgreSQL from DATABASE_URL, else an embedded one in a
 * temp dir), runs every scenario next to its reference in the same run, and prints a table.
 * BENCH_SECONDS (default 8) sets each load's duration; BENCH_ONLY=rates,orders filters groups.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { openEmbeddedDatabase } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { createDeps } from '../src/deps.ts';
import { compare, formatTable, type Row, startServer } from './harness.ts';
import { hammerCpu, type LatencyResult, noisyNeighbour } from './noisy-neighbour.ts';

/** Orders need a pickup address: the bench brands have a default one, as real brands do. */
const PICKUP = '1 rue de Rivoli 75001 Paris';

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
  const database = await createThrowawayDatabase(adminUrl, 'dlv_bench');
  return {
    url: database.url,
    async cleanup() {
      await database.drop();
      await stop();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Many orders for one brand, straight in SQL: unique refs from a counter (hex digits are Crockford). */
async function seedOrders(pool: pg.Pool, brandId: string, count: number): Promise<void> {
  const batch = 200_000;
  for (let from = 1; from <= count; from += batch) {
    await pool.query(
      `INSERT INTO orders (tracking_ref, brand_id, status, customer_email, service, unit_type, quantity, unit_weight_grams,
          delivery_address, delivery_postcode, delivery_city, delivery_zone, price_excl_tax_cents, vat_cents, price_cents,
          promised_date, created_at, updated_at)
       SELECT 'DLV-' || lpad(upper(to_hex(g)), 10, '0'), $1, (ARRAY['pending','picked_up','in_transit','delivered'])[1 + g % 4],
              'seed@example.com', 'standard', 'parcel', 1, 1000, '1 rue X 75011 Paris', '75011', 'Paris', 'paris',
              700, 140, 840, '2026-01-02', now() - make_interval(secs => $3 - g), now() - make_interval(secs => $3 - g)
         FROM generate_series($2::int, $4::int) g`,
      [brandId, from, count + 1, Math.min(from + batch - 1, count)],
    );
  }
  // Vacuum now, so that autovacuum on a million new rows does not run during the measurements.
  await pool.query('VACUUM (ANALYZE) orders');
}

/** Server-side time of the list query at its first page and deep in the list, by EXPLAIN ANALYZE. */
async function explainListQueries(pool: pg.Pool, brandId: string): Promise<string[]> {
  const deep = await pool.query<{ id: number }>(
    'SELECT id FROM orders WHERE brand_id = $1 ORDER BY created_at DESC, id DESC OFFSET 500000 LIMIT 1',
    [brandId],
  );
  const after = deep.rows[0]?.id ?? null;
  const lines: string[] = [];
  for (const [label, status, cursor] of [
    ['first page', null, null],
    ['page after 500,000 orders', null, after],
    ['first page, status=delivered', 'delivered', null],
  ] as const) {
    // The statement the repository prepares for these filters (see listJson there).
    const values: unknown[] = [brandId];
    let where = 'o.brand_id = $1';
    if (status) where += ` AND o.status = $${values.push(status)}`;
    if (cursor)
      where += ` AND (o.created_at, o.id) < (SELECT c.created_at, c.id FROM orders c WHERE c.id = $${values.push(cursor)} AND c.brand_id = $1)`;
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, FORMAT TEXT) SELECT o.* FROM orders o WHERE ${where}
         ORDER BY o.created_at DESC, o.id DESC LIMIT $${values.push(51)}`,
      values,
    );
    const plan = rows.map((r) => r['QUERY PLAN']);
    const time = plan.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
    const index = /using (\S+)/.exec(plan.find((l) => l.includes('Index')) ?? '')?.[1] ?? 'no index';
    lines.push(`GET /orders query, ${label}: ${time} (index ${index})`);
  }
  return lines;
}

/**
 * Webhooks: deliveries per second from one worker (concurrency 8) to a loopback receiver, and what
 * a status change costs with an endpoint subscribed versus none (the event and its job are written
 * either way; delivery happens afterwards, off the request path).
 */
async function benchWebhooks(): Promise<string[]> {
  const { createServer } = await import('node:http');
  const { startWorker } = await import('../src/worker.ts');
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as { port: number }).port;
  const hooks = createDeps(loadConfig({ DATABASE_URL: db.url, WEBHOOKS_ALLOW_INSECURE: '1' }), pool);
  const subscribed = await hooks.brands.create({ name: 'Webhook bench', pickupAddress: PICKUP });
  const quiet = await hooks.brands.create({ name: 'No webhooks', pickupAddress: PICKUP });
  await hooks.webhooks.add({ brandId: subscribed.id, url: `http://127.0.0.1:${port}/hook` });
  const body = { customer_email: 'w@example.com', delivery_address: '1 rue X 75011 Paris' };
  const count = Number(process.env.BENCH_WEBHOOKS ?? 1000);

  // Added latency: the same status change for a brand with and without a subscribed endpoint.
  const changeLatency = async (brandId: string) => {
    const refs: string[] = [];
    for (let i = 0; i < 200; i++)
      refs.push(
        (
          (await hooks.orders.create({ id: brandId, defaultPickupAddress: PICKUP }, body, null)).body as {
            trackingRef: string;
          }
        ).trackingRef,
      );
    const times: number[] = [];
    for (const ref of refs) {
      const started = performance.now();
      await hooks.orders.setStatus(ref, 'picked_up', null);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: times[100]!, p99: times[197]! };
  };
  const withHooks = await changeLatency(subscribed.id);
  const without = await changeLatency(quiet.id);

  // Throughput: `count` order.created events queued, then one worker drains them.
  for (let i = 0; i < count; i++)
    await hooks.orders.create({ id: subscribed.id, defaultPickupAddress: PICKUP }, body, null);
  const started = Date.now();
  const runner = await startWorker(hooks, { concurrency: 8, pollIntervalMs: 50 });
  const expected = count + 400; // + the 200 created and 200 status changes above
  let delivered = 0;
  while (Date.now() - started < 120_000) {
    const { rows } = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.brand_id = $1 AND d.status = 'succeeded'",
      [subscribed.id],
    );
    delivered = rows[0]!.n;
    if (delivered >= expected) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const seconds = (Date.now() - started) / 1000;
  await runner.stop();
  receiver.close();
  return [
    `webhooks: ${delivered} deliveries to a loopback receiver in ${seconds.toFixed(1)} s = ${(delivered / seconds).toFixed(0)} deliveries/s (1 worker, concurrency 8)`,
    `status change latency p50/p99: ${withHooks.p50.toFixed(2)}/${withHooks.p99.toFixed(2)} ms with an endpoint subscribed, ${without.p50.toFixed(2)}/${without.p99.toFixed(2)} ms without`,
  ];
}

/**
 * Rate limits isolate brands: with the default limits on (50/s, burst 100), one brand sends 40 times
 * its limit (reading its own order) while another reads its order at 40/s; the quiet brand's p99 is compared with a run
 * where nobody hammers.
 */
async function benchNoisyNeighbour(): Promise<Row> {
  const limited = await startServer('bench/servers/api-server.ts', {
    DATABASE_URL: db.url,
    RATE_LIMIT_PER_SECOND: '50',
    RATE_LIMIT_BURST: '100',
  });
  try {
    const keyFor = async (name: string) => {
      const b = await deps.brands.create({ name, pickupAddress: PICKUP });
      const k = await deps.apiKeys.create({ brandId: b.id, scopes: ['orders:read', 'orders:write'] });
      return { brandId: b.id, headers: { authorization: `Bearer ${k.key}` } };
    };
    const quiet = await keyFor('Quiet neighbour');
    const noisy = await keyFor('Noisy neighbour');
    const orderUrl = async (brandId: string) => {
      const created = await deps.orders.create(
        { id: brandId, defaultPickupAddress: PICKUP },
        { customer_email: 'q@example.com', delivery_address: '1 rue X 75011 Paris' },
        null,
      );
      return `http://127.0.0.1:${limited.port}/public/v1/orders/${(created.body as { trackingRef: string }).trackingRef}`;
    };
    const seconds = Number(process.env.BENCH_SECONDS ?? 8);
    const rate = 40;
    const outcome = await noisyNeighbour({
      url: await orderUrl(quiet.brandId),
      headers: quiet.headers,
      rate,
      hammerUrl: await orderUrl(noisy.brandId),
      hammerHeaders: noisy.headers,
      hammerRate: 2000,
      seconds,
      rounds: 3,
    });
    const asLoad = (r: LatencyResult) => ({
      requestsPerSecond: r.requests / (seconds * 3),
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      errors: r.failures,
      non2xx: 0,
    });
    const statuses = Object.entries(outcome.hammerStatuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ');
    const cpu = hammerCpu();
    const pinning = cpu === null ? 'sharing all CPUs' : `its client pinned to CPU ${cpu}`;
    notes.push(
      `noisy neighbour: the hammering brand got ${statuses || 'no answers'} (2,000 req/s tried, limit 50/s; ${pinning})`,
    );
    return {
      scenario: `GET /orders/{ref} at ${rate}/s, another brand at 2,000/s`,
      result: asLoad(outcome.loaded),
      reference: { name: 'same, nobody hammering', result: asLoad(outcome.quiet) },
      targetP99Factor: 1.2,
    };
  } finally {
    await limited.stop();
  }
}

const only = process.env.BENCH_ONLY?.split(',');
const wants = (group: string) => !only || only.includes(group);

const db = await prepareDatabase();
const pool = createPool(db.url, 4);
await migrate(pool);
const deps = createDeps(loadConfig({ DATABASE_URL: db.url }), pool);
const brand = await deps.brands.create({ name: 'Bench brand', pickupAddress: PICKUP });
const key = await deps.apiKeys.create({
  brandId: brand.id,
  scopes: ['orders:read', 'orders:write', 'invoices:read'],
});
const auth = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };

const notes: string[] = [];
if (wants('orders')) {
  const count = Number(process.env.BENCH_ORDERS ?? 1_000_000);
  const started = Date.now();
  await seedOrders(pool, brand.id, count);
  notes.push(
    `seeded ${count.toLocaleString('en')} orders for the bench brand in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  notes.push(...(await explainListQueries(pool, brand.id)));
}

const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_SECOND: '0' };
const api = await startServer('bench/servers/api-server.ts', env);
const bare = await startServer('bench/servers/bare-server.ts', {});
const reference = wants('orders') ? await startServer('bench/servers/reference-server.ts', env) : null;
const rows: Row[] = [];
try {
  if (wants('rates')) {
    const body = JSON.stringify({
      delivery_zip: '75011',
      unit_type: 'parcel',
      unit_weight: '2kg',
      quantity: 2,
    });
    const measured = await compare(
      { url: `http://127.0.0.1:${api.port}/public/v1/rates`, method: 'POST', headers: auth, body },
      { url: `http://127.0.0.1:${bare.port}/bare`, method: 'POST', headers: auth, body },
    );
    rows.push({
      scenario: 'POST /rates',
      result: measured.result,
      reference: { name: 'bare Fastify', result: measured.reference },
      targetRatio: 0.5,
    });
  }
  if (reference) {
    const orderBody = JSON.stringify({
      customer_email: 'bench@example.com',
      delivery_address: '12 rue Oberkampf 75011 Paris',
    });
    const apiBase = `http://127.0.0.1:${api.port}/public/v1`;
    const refBase = `http://127.0.0.1:${reference.port}`;
    const pair = async (
      scenario: string,
      path: string,
      method: 'GET' | 'POST',
      targetRatio: number,
      targetP99Ms?: number,
    ) => {
      const body = method === 'POST' ? orderBody : undefined;
      const measured = await compare(
        { url: `${apiBase}${path}`, method, headers: auth, body },
        { url: `${refBase}${path}`, method, headers: auth, body },
      );
      rows.push({
        scenario,
        result: measured.result,
        reference: { name: 'node:http + same SQL', result: measured.reference },
        targetRatio,
        targetP99Ms,
      });
    };
    await pair('POST /orders', '/orders', 'POST', 0.6);
    await pair('GET /orders (50 of 1M)', '/orders?limit=50', 'GET', 0.7, 50);
    const created = await deps.orders.create(
      { id: brand.id, defaultPickupAddress: PICKUP },
      { customer_email: 'x@y.fr', delivery_address: '1 rue X 75011 Paris' },
      null,
    );
    const ref = (created.body as { trackingRef: string }).trackingRef;
    await pair('GET /orders/{ref}', `/orders/${ref}`, 'GET', 0.8, 50);
  }
  if (wants('noisy')) rows.push(await benchNoisyNeighbour());
  if (wants('webhooks')) notes.push(...(await benchWebhooks()));
} finally {
  await reference?.stop();
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
for (const note of notes) console.log(`- ${note}`);
console.log('');
console.log(formatTable(rows));
process.exit(0);
