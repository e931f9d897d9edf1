/**
 * The per-route breakdown's loads: each route on an API server of its own (worker on, as
 * `npm start` runs it), profiled with `node --cpu-prof`, with the database's counters read before
 * it starts and after it has stopped (a backend's statistics are complete once it has ended).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import type pg from 'pg';
import {
  cpuByModule,
  cpuTable,
  hasStatStatements,
  type PgSnapshot,
  pgSnapshot,
  sqlTable,
  waitForBackendsGone,
  writesTable,
} from './breakdown.ts';
import { type RunningServer, startServer } from './harness.ts';
import { waitForDrain } from './queue.ts';

export interface BreakdownContext {
  dbUrl: string;
  pool: pg.Pool;
  brandId: string;
  apiKey: string;
}

const OPS_TOKEN = 'bench-ops-token-0123456789abcdef';
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
// Requests sent, the ones still in flight when the load stopped included: the server handles them too.
const sent = (result: autocannon.Result) => (result.requests as { sent?: number }).sent ?? result['2xx'];

/** Starts an API server, runs `work` on it, stops it, and returns the counters' two snapshots. */
async function onOwnServer<T>(
  ctx: BreakdownContext,
  statements: boolean,
  nodeArgs: string[],
  work: (server: RunningServer) => Promise<T>,
): Promise<{ outcome: T; before: PgSnapshot; after: PgSnapshot }> {
  const before = await pgSnapshot(ctx.pool, statements);
  const env = { DATABASE_URL: ctx.dbUrl, RATE_LIMIT_PER_SECOND: '0', RUN_WORKER: '1', OPS_TOKEN };
  const server = await startServer('bench/servers/api-server.ts', env, nodeArgs);
  let outcome: T;
  try {
    outcome = await work(server);
  } finally {
    await server.stop();
  }
  await waitForBackendsGone(ctx.pool);
  return { outcome, before, after: await pgSnapshot(ctx.pool, statements) };
}

interface Route {
  title: string;
  path: string;
  method: 'GET' | 'POST';
  body?: string;
  unit: string;
  writes: boolean;
}

/**
 * A warm-up load, then the measured one; the CPU profile counts the measured load and its queue
 * drain, the database counters both loads (a statement costs the same warm or cold).
 */
async function profiledRoute(ctx: BreakdownContext, route: Route, statements: boolean): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-bench-prof-'));
  const seconds = Number(process.env.BENCH_BREAKDOWN_SECONDS ?? 5);
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  try {
    const { outcome, before, after } = await onOwnServer(
      ctx,
      statements,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      async (server) => {
        const load = {
          url: `http://127.0.0.1:${server.port}/public/v1${route.path}`,
          method: route.method,
          headers: { authorization: `Bearer ${ctx.apiKey}`, 'content-type': 'application/json' },
          body: route.body,
          connections: 50,
        };
        const warm = await autocannon({ ...load, duration: warmup });
        await waitForDrain(ctx.pool);
        const from = nowUs();
        const measured = await autocannon({ ...load, duration: seconds });
        const drain = await waitForDrain(ctx.pool);
        return { from, to: nowUs(), warm: sent(warm), measured: sent(measured), drain };
      },
    );
    const total = outcome.warm + outcome.measured;
    return [
      `### ${route.title}`,
      '',
      `${outcome.measured} ${route.unit}s in ${seconds} s (after ${outcome.warm} in a ${warmup} s warm-up); ` +
        `the job queue then held ${outcome.drain.depth} jobs, drained in ${outcome.drain.seconds.toFixed(2)} s.`,
      '',
      ...cpuTable(await cpuByModule(dir, outcome.from, outcome.to), outcome.measured),
      '',
      ...sqlTable(before, after, total, route.unit),
      '',
      ...(route.writes ? [...writesTable(before, after, total, route.unit), ''] : []),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Pending orders moved to picked_up through the ops API, 10 at a time. */
async function statusChanges(ctx: BreakdownContext, statements: boolean): Promise<string[]> {
  const count = Number(process.env.BENCH_BREAKDOWN_CHANGES ?? 1000);
  const { rows } = await ctx.pool.query<{ ref: string }>(
    `SELECT tracking_ref AS ref FROM orders WHERE brand_id = $1 AND status = 'pending' ORDER BY id DESC LIMIT $2`,
    [ctx.brandId, count],
  );
  const { outcome, before, after } = await onOwnServer(ctx, statements, [], async (server) => {
    const refs = rows.map((r) => r.ref);
    let changed = 0;
    const next = async (): Promise<void> => {
      for (let ref = refs.pop(); ref; ref = refs.pop()) {
        const res = await fetch(`http://127.0.0.1:${server.port}/ops/v1/orders/${ref}/status`, {
          method: 'POST',
          headers: { authorization: `Bearer ${OPS_TOKEN}`, 'content-type': 'application/json' },
          body: '{"status":"picked_up"}',
        });
        await res.arrayBuffer();
        if (res.ok) changed++;
      }
    };
    await Promise.all(Array.from({ length: 10 }, next));
    return { changed, drain: await waitForDrain(ctx.pool) };
  });
  return [
    '### Status change (ops API, pending → picked_up)',
    '',
    `${outcome.changed} changes; the job queue then held ${outcome.drain.depth} jobs, drained in ${outcome.drain.seconds.toFixed(2)} s.`,
    '',
    ...sqlTable(before, after, outcome.changed, 'change'),
    '',
    ...writesTable(before, after, outcome.changed, 'change'),
    '',
  ];
}

/** The breakdown as markdown. Nothing else may use the database meanwhile (its counters are global). */
export async function runBreakdown(ctx: BreakdownContext): Promise<string[]> {
  const statements = await hasStatStatements(ctx.pool);
  const body = JSON.stringify({
    customer_email: 'bench@example.com',
    delivery_address: '12 rue Oberkampf 75011 Paris',
  });
  const lines = [
    '## Per-route breakdown',
    '',
    'CPU: the API process (its job worker included) during the measured load and its queue drain, from a ' +
      '`node --cpu-prof` profile, by module: its own frames, and with the node internals and natives it called ' +
      '(socket writes, hashing). SQL and rows: the database counters around both loads, worker jobs included.',
    '',
    ...(await profiledRoute(
      ctx,
      { title: 'POST /orders', path: '/orders', method: 'POST', body, unit: 'order', writes: true },
      statements,
    )),
  ];
  const { rows } = await ctx.pool.query<{ ref: string }>(
    'SELECT tracking_ref AS ref FROM orders WHERE brand_id = $1 ORDER BY id DESC LIMIT 1',
    [ctx.brandId],
  );
  lines.push(
    ...(await profiledRoute(
      ctx,
      {
        title: 'GET /orders/{ref}',
        path: `/orders/${rows[0]!.ref}`,
        method: 'GET',
        unit: 'request',
        writes: false,
      },
      statements,
    )),
    ...(await statusChanges(ctx, statements)),
  );
  return lines;
}
