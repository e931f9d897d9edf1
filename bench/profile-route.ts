/**
 * `node --import tsx bench/profile-route.ts [POST|GET-detail|GET-list|rates|scans]`: one route under load on an
 * API server run with `--cpu-prof` (`scans`: the courier sync endpoint, as bench/scans.ts drives it), then the functions that cost the most (self and inclusive time
 * within src/). A developer's tool for finding where a route's time goes; `npm run bench` has the
 * per-module summary.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { createDeps } from '../src/deps.ts';
import { BENCH_OPERATOR, startServer } from './harness.ts';
import { benchScans } from './scans.ts';

const route = process.argv[2] ?? 'POST';
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const db = await createThrowawayDatabase(adminUrl, 'dlv_profile');
const pool = createPool(db.url, 4);
await migrate(pool);
const deps = createDeps(loadConfig({ DATABASE_URL: db.url }), pool);
const brand = await deps.brands.create(
  { name: 'Profile', pickupAddress: '1 rue de Rivoli 75001 Paris' },
  BENCH_OPERATOR,
);
const key = await deps.apiKeys.create(
  { brandId: brand.id, scopes: ['orders:read', 'orders:write'] },
  BENCH_OPERATOR,
);
const order = await deps.orders.create(
  { id: brand.id, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
  { customer_email: 'p@example.com', delivery_address: '12 rue Oberkampf 75011 Paris' },
);
for (let i = 0; i < 200; i++)
  await deps.orders.create(
    { id: brand.id, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
    { customer_email: 'p@example.com', delivery_address: '12 rue Oberkampf 75011 Paris' },
  );
const dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-prof-'));
const server = await startServer(
  'bench/servers/api-server.ts',
  { DATABASE_URL: db.url, RATE_LIMIT_PER_SECOND: '0' },
  ['--cpu-prof', `--cpu-prof-dir=${dir}`],
);
if (route === 'scans') {
  const notes = await benchScans(
    deps,
    pool,
    `http://127.0.0.1:${server.port}`,
    brand.id,
    '1 rue de Rivoli 75001 Paris',
  );
  console.log(notes.join('\n'));
}
const base = `http://127.0.0.1:${server.port}/public/v1`;
const headers = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };
const target =
  route === 'POST'
    ? {
        url: `${base}/orders`,
        method: 'POST' as const,
        body: JSON.stringify({
          customer_email: 'b@example.com',
          delivery_address: '12 rue Oberkampf 75011 Paris',
        }),
      }
    : route === 'rates'
      ? {
          url: `${base}/rates`,
          method: 'POST' as const,
          body: JSON.stringify({
            delivery_zip: '75011',
            unit_type: 'parcel',
            unit_weight: '2kg',
            quantity: 2,
          }),
        }
      : route === 'GET-list'
        ? { url: `${base}/orders?limit=50`, method: 'GET' as const }
        : { url: `${base}/orders/${order.trackingRef}`, method: 'GET' as const };
if (route !== 'scans') {
  const result = await autocannon({ ...target, headers, connections: 50, duration: 6 });
  console.log(
    `${route}: ${result.requests.average} req/s, p99 ${result.latency.p99} ms, non2xx ${result.non2xx}`,
  );
}
await server.stop();
await pool.end();
await db.drop();

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
};
const self = new Map<number, number>();
profile.samples.forEach((id, i) => {
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const label = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const selfBy = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id)!;
  selfBy.set(label(n), (selfBy.get(label(n)) ?? 0) + us);
}
const total = [...self.values()].reduce((a, b) => a + b, 0);
const inclusive = new Map<string, number>();
const walk = (id: number, stack: Set<string>): number => {
  const n = byId.get(id)!;
  let sum = self.get(id) ?? 0;
  for (const c of n.children ?? []) sum += walk(c, stack);
  const l = label(n);
  if (n.callFrame.url.includes('/src/') && !stack.has(l)) inclusive.set(l, (inclusive.get(l) ?? 0) + sum);
  return sum;
};
walk(profile.nodes[0]!.id, new Set());
const top = (m: Map<string, number>, k: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([l, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${l}`);
console.log(`\nself time, top 25:\n${top(selfBy, 25).join('\n')}`);
console.log(`\ninclusive time of src/ functions, top 20:\n${top(inclusive, 20).join('\n')}`);
process.exit(0);
