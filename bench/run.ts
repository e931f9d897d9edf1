/**
 * `npm run bench`: starts what it needs (PostgreSQL from DATABASE_URL, else an embedded one in a
 * temp dir), runs every scenario next to its reference(s) in the same run, and prints a table, then
 * the per-route breakdown (also written to bench/last-breakdown.md). BENCH_SECONDS (default 8) sets
 * each load's duration; BENCH_ONLY=rates,ping,shopify,orders,minimal,sustained,noisy,labels,scans,proof,console,webhooks,breakdown,startup,routes,paris-day filters groups.
 * `npm run bench -- routes [options]` (or BENCH_ONLY=routes) runs only the route-quality bench
 * (bench/routes/bench-routes.ts), which needs no database. `npm run bench -- paris-day` (or
 * BENCH_ONLY=paris-day) runs only issue 37's day of 150 orders, sort code against optimised
 * (bench/paris-day-run.ts), on a database of its own.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { createDeps } from '../src/deps.ts';
import { runBreakdown } from './breakdown-run.ts';
import { benchConsoleBoard } from './console-board.ts';
import {
  copyToMinimal,
  explainListQueries,
  prepareDatabase,
  seedMinimalOrders,
  seedOrders,
} from './database.ts';
import {
  BENCH_OPERATOR,
  compare,
  compareAll,
  formatTable,
  type LoadResult,
  type Row,
  startServer,
} from './harness.ts';
import { benchLabels } from './labels.ts';
import { hammerCpu, type LatencyResult, noisyNeighbour } from './noisy-neighbour.ts';
import { benchProofUpload } from './proof-upload.ts';
import { sustainedCreation, waitForDrain } from './queue.ts';
import { benchScans } from './scans.ts';
import { SHOPIFY_BENCH_ENV, shopifyRatesLoad } from './shopify-rates.ts';
import { benchStartup } from './startup.ts';
import { benchWebhookDelivery } from './webhooks.ts';

/** Orders need a pickup address: the bench brands have a default one, as real brands do. */
const PICKUP = '1 rue de Rivoli 75001 Paris';

/**
 * Webhooks: what a status change costs with an endpoint subscribed versus none (the event and its job
 * are written either way; delivery happens afterwards, off the request path), then the delivery
 * throughput and isolation figures against a minimal signed sender (bench/webhooks.ts).
 */
async function benchWebhooks(): Promise<string[]> {
  const { createServer } = await import('node:http');
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as { port: number }).port;
  const hooks = createDeps(loadConfig({ DATABASE_URL: db.url, WEBHOOKS_ALLOW_INSECURE: '1' }), pool);
  const subscribed = await hooks.brands.create(
    { name: 'Webhook bench', pickupAddress: PICKUP },
    BENCH_OPERATOR,
  );
  const quiet = await hooks.brands.create({ name: 'No webhooks', pickupAddress: PICKUP }, BENCH_OPERATOR);
  const { endpoint } = await hooks.webhooks.add(
    {
      brandId: subscribed.id,
      url: `http://127.0.0.1:${port}/hook`,
    },
    BENCH_OPERATOR,
  );
  const body = { customer_email: 'w@example.com', delivery_address: '1 rue X 75011 Paris' };

  // Added latency: the same status change for a brand with and without a subscribed endpoint.
  const changeLatency = async (brandId: string) => {
    const refs: string[] = [];
    for (let i = 0; i < 200; i++)
      refs.push((await hooks.orders.create({ id: brandId, defaultPickupAddress: PICKUP }, body)).trackingRef);
    const times: number[] = [];
    for (const ref of refs) {
      const started = performance.now();
      await hooks.orders.setStatus(ref, 'picked_up', null, BENCH_OPERATOR);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { p50: times[100]!, p99: times[197]! };
  };
  const withHooks = await changeLatency(subscribed.id);
  const without = await changeLatency(quiet.id);

  // Its events' fan-outs (never run here) must not send to a receiver that is gone.
  await hooks.webhooks.disable(endpoint.id, BENCH_OPERATOR);
  receiver.close();
  return [
    ...(await benchWebhookDelivery(db.url, (size) =>
      createDeps(
        loadConfig({ DATABASE_URL: db.url, WEBHOOKS_ALLOW_INSECURE: '1' }),
        createPool(db.url, size),
      ),
    )),
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
      const b = await deps.brands.create({ name, pickupAddress: PICKUP }, BENCH_OPERATOR);
      const k = await deps.apiKeys.create(
        { brandId: b.id, scopes: ['orders:read', 'orders:write'] },
        BENCH_OPERATOR,
      );
      return { brandId: b.id, headers: { authorization: `Bearer ${k.key}` } };
    };
    const quiet = await keyFor('Quiet neighbour');
    const noisy = await keyFor('Noisy neighbour');
    const orderUrl = async (brandId: string) => {
      const created = await deps.orders.create(
        { id: brandId, defaultPickupAddress: PICKUP },
        { customer_email: 'q@example.com', delivery_address: '1 rue X 75011 Paris' },
      );
      return `http://127.0.0.1:${limited.port}/public/v1/orders/${created.trackingRef}`;
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

if (process.argv[2] === 'routes' || process.env.BENCH_ONLY === 'routes') {
  const { benchRoutes } = await import('./routes/bench-routes.ts');
  process.exit(await benchRoutes(process.argv.slice(process.argv[2] === 'routes' ? 3 : 2)));
}

if (process.argv[2] === 'paris-day' || process.env.BENCH_ONLY === 'paris-day') {
  const { benchParisDay } = await import('./paris-day-run.ts');
  const { lines, ok } = await benchParisDay();
  console.log(lines.join('\n'));
  process.exit(ok ? 0 : 1);
}

const db = await prepareDatabase();
const pool = createPool(db.url, 4);
await migrate(pool);
const deps = createDeps(loadConfig({ DATABASE_URL: db.url }), pool);
const brand = await deps.brands.create({ name: 'Bench brand', pickupAddress: PICKUP }, BENCH_OPERATOR);
const key = await deps.apiKeys.create(
  {
    brandId: brand.id,
    scopes: ['orders:read', 'orders:write', 'invoices:read'],
  },
  BENCH_OPERATOR,
);
const auth = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };
const orderBody = JSON.stringify({
  customer_email: 'bench@example.com',
  delivery_address: '12 rue Oberkampf 75011 Paris',
});

const notes: string[] = [];
if (wants('orders') || wants('minimal')) {
  const count = Number(process.env.BENCH_ORDERS ?? 1_000_000);
  const started = Date.now();
  await seedOrders(pool, brand.id, count);
  if (wants('minimal')) await seedMinimalOrders(pool, brand.id, count);
  notes.push(
    `seeded ${count.toLocaleString('en')} orders for the bench brand in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  notes.push(...(await explainListQueries(pool, brand.id)));
}

// The API runs its job worker, as `npm start` does: the jobs its writes enqueue are work it owes;
// and the Shopify connector, as a deployment selling it does.
const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_SECOND: '0' };
const api = await startServer('bench/servers/api-server.ts', {
  ...env,
  ...SHOPIFY_BENCH_ENV,
  RUN_WORKER: '1',
});
const bare = await startServer('bench/servers/bare-server.ts', {});
const references = [
  wants('orders') && {
    key: 'sameSql' as const,
    name: 'node:http + same SQL',
    server: await startServer('bench/servers/reference-server.ts', env),
  },
  (wants('minimal') || wants('ping')) && {
    key: 'minimal' as const,
    name: 'Fastify + pg, minimal',
    server: await startServer('bench/servers/minimal-server.ts', {
      ...env,
      MIN_API_KEY: key.key,
      MIN_BRAND_ID: brand.id,
    }),
  },
].filter((r) => r !== false);
const apiBase = `http://127.0.0.1:${api.port}/public/v1`;
const stopServers = async () => {
  for (const server of [api, bare, ...references.map((r) => r.server)]) await server.stop();
};
const rows: Row[] = [];
let breakdown: string[] = [];

/**
 * The ratios a route must reach against each reference: against the minimal server, those of issue
 * #11 (the data model's cost); against node:http running the same SQL, the original ones for the
 * order routes (the framework's and the service code's cost), none for `GET /ping`.
 */
interface RouteTargets {
  minimal: number;
  sameSql?: number;
}

/**
 * One route of the project against each reference, in interleaved rounds. A POST waits after each
 * run for the job queue to drain, and is judged on its throughput over run + drain.
 */
async function route(
  scenario: string,
  path: string,
  method: 'GET' | 'POST',
  targets: RouteTargets,
  p99?: number,
) {
  const load = (base: string) => ({
    url: `${base}${path}`,
    method,
    headers: auth,
    body: method === 'POST' ? orderBody : undefined,
  });
  const settle = method === 'POST' ? async () => (await waitForDrain(pool)).seconds : undefined;
  const measured = await compareAll(
    load(apiBase),
    references.map((r) => load(`http://127.0.0.1:${r.server.port}`)),
    { settle },
  );
  const drained = (r: LoadResult): LoadResult => ({ ...r, requestsPerSecond: r.drained!.requestsPerSecond });
  for (const [i, { key, name }] of references.entries()) {
    const reference = { name, result: measured.references[i]! };
    const targetRatio = targets[key];
    if (!settle) {
      rows.push({ scenario, result: measured.result, reference, targetRatio, targetP99Ms: p99 });
      continue;
    }
    rows.push({ scenario: `${scenario}, run only`, result: measured.result, reference });
    rows.push({
      scenario: `${scenario}, run + queue drain`,
      result: drained(measured.result),
      reference: { name, result: drained(reference.result) },
      targetRatio,
    });
  }
  if (settle) {
    const seconds = (r: LoadResult) => `${r.drained!.seconds.toFixed(2)} s`;
    const theirs = references.map(({ name }, i) => `${seconds(measured.references[i]!)} after ${name}'s`);
    notes.push(
      `${scenario}: the job queue took ${seconds(measured.result)} to drain after each run of the project, ${theirs.join(', ')}`,
    );
  }
}

try {
  if (wants('rates')) {
    const body = JSON.stringify({
      delivery_zip: '75011',
      unit_type: 'parcel',
      unit_weight: '2kg',
      quantity: 2,
    });
    const measured = await compare(
      { url: `${apiBase}/rates`, method: 'POST', headers: auth, body },
      { url: `http://127.0.0.1:${bare.port}/bare`, method: 'POST', headers: auth, body },
    );
    rows.push({
      scenario: 'POST /rates',
      result: measured.result,
      reference: { name: 'bare Fastify', result: measured.reference },
      // Issue 36, item 23: back to what it was (0.78–0.84) before it fell to 0.57.
      targetRatio: 0.8,
    });
  }
  if (wants('shopify')) {
    // Shopify's checkout waits 3–10 s, then shows backup rates: the budget is 100 ms at p99.
    const body = JSON.stringify({
      delivery_zip: '75011',
      unit_type: 'parcel',
      unit_weight: '2100g',
      quantity: 1,
    });
    const measured = await compare(
      await shopifyRatesLoad(deps, pool, `http://127.0.0.1:${api.port}`, PICKUP),
      { url: `${apiBase}/rates`, method: 'POST', headers: auth, body },
    );
    rows.push({
      scenario: 'Shopify carrier-service rates (signed)',
      result: measured.result,
      reference: { name: 'POST /rates', result: measured.reference },
      targetP99Ms: 100,
    });
  }
  if (references.length > 0) await route('GET /ping', '/ping', 'GET', { minimal: 0.9 });
  // `BENCH_ONLY=ping`: the framework's floor alone, without seeding a million orders first.
  if (references.length > 0 && (wants('orders') || wants('minimal'))) {
    await route('POST /orders', '/orders', 'POST', { minimal: 0.6, sameSql: 0.6 });
    await route('GET /orders (50 of 1M)', '/orders?limit=50', 'GET', { minimal: 0.7, sameSql: 0.7 }, 50);
    // An order with its history, created through the API; the minimal table gets its copy.
    const created = await fetch(`${apiBase}/orders`, { method: 'POST', headers: auth, body: orderBody });
    const ref = ((await created.json()) as { trackingRef: string }).trackingRef;
    if (wants('minimal')) await copyToMinimal(pool, ref);
    await route('GET /orders/{ref}', `/orders/${ref}`, 'GET', { minimal: 0.8, sameSql: 0.8 }, 50);
  }
  if (wants('sustained')) {
    const sustained = await sustainedCreation(pool, {
      url: `${apiBase}/orders`,
      method: 'POST',
      headers: auth,
      body: orderBody,
    });
    rows.push(sustained.row);
    notes.push(sustained.note);
  }
  if (wants('noisy')) rows.push(await benchNoisyNeighbour());
  if (wants('labels')) notes.push(...(await benchLabels(deps, brand.id, PICKUP)));
  if (wants('scans'))
    notes.push(...(await benchScans(deps, pool, `http://127.0.0.1:${api.port}`, brand.id, PICKUP)));
  if (wants('proof')) notes.push(...(await benchProofUpload(db.url, brand.id, PICKUP)));
  if (wants('console')) notes.push(...(await benchConsoleBoard(db.url, brand.id, PICKUP)));
  // Both below need the database to themselves: their own worker, or global counters.
  await stopServers();
  if (wants('webhooks')) notes.push(...(await benchWebhooks()));
  // Alone on the machine too: start-up times and memory (compiled vs tsx).
  if (wants('startup')) notes.push(...(await benchStartup(db.url)));
  if (wants('breakdown'))
    breakdown = await runBreakdown({ dbUrl: db.url, pool, brandId: brand.id, apiKey: key.key });
} finally {
  await stopServers();
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
if (breakdown.length > 0) {
  const text = breakdown.join('\n');
  console.log(`\n${text}`);
  await writeFile(new URL('last-breakdown.md', import.meta.url), `${text}\n`);
}
// CPU-bound: last, with the servers and the database stopped.
if (wants('paris-day')) {
  const { benchParisDay } = await import('./paris-day-run.ts');
  console.log(`\n${(await benchParisDay()).lines.join('\n')}`);
}
if (wants('routes')) {
  const { benchRoutes } = await import('./routes/bench-routes.ts');
  console.log('');
  process.exit(await benchRoutes([]));
}
process.exit(0);
