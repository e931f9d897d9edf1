/**
 * `node --import tsx bench/cpu-split.ts`: where each order route's CPU goes — the API process (and
 * how much of it in the kernel), PostgreSQL (the rest of the machine's busy time) and the load
 * generator — per request, for the project and for the minimal reference, on a fresh database
 * (DATABASE_URL's server, else the machine's). On a machine whose cores the three share, these
 * budgets set the ratios `npm run bench` prints. A developer's tool.
 *
 * CPU_SPLIT_ROUTES=detail,list,post and CPU_SPLIT_SECONDS (5) choose the loads; BENCH_ORDERS (200,000)
 * the seed; PROFILE=1 runs both servers under --cpu-prof and prints each load's CPU by module.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { createPool } from '../src/db/pool.ts';
import { createThrowawayDatabase } from '../src/db/throwaway-database.ts';
import { createDeps } from '../src/deps.ts';
import { cpuByModule, cpuTable } from './breakdown.ts';
import { copyToMinimal, seedMinimalOrders, seedOrders } from './database.ts';
import { BENCH_OPERATOR, type RunningServer, startServer } from './harness.ts';

const TICK_MS = 10; // USER_HZ = 100 on Linux
const PICKUP = '1 rue de Rivoli 75001 Paris';
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const db = await createThrowawayDatabase(adminUrl, 'dlv_cpu');
const pool = createPool(db.url, 4);
await migrate(pool);
const deps = createDeps(loadConfig({ DATABASE_URL: db.url }), pool);
const brand = await deps.brands.create({ name: 'CPU split', pickupAddress: PICKUP }, BENCH_OPERATOR);
const key = await deps.apiKeys.create(
  { brandId: brand.id, scopes: ['orders:read', 'orders:write'] },
  BENCH_OPERATOR,
);
const count = Number(process.env.BENCH_ORDERS ?? 200_000);
await seedOrders(pool, brand.id, count);
await seedMinimalOrders(pool, brand.id, count);
const order = await deps.orders.create(
  { id: brand.id, defaultPickupAddress: PICKUP },
  { customer_email: 'p@example.com', delivery_address: '12 rue Oberkampf 75011 Paris' },
);
await copyToMinimal(pool, order.trackingRef);

type Side = 'project' | 'minimal';
const profile = process.env.PROFILE === '1';
const profileDir = async (side: Side) =>
  profile ? await mkdtemp(path.join(os.tmpdir(), `dlv-cpu-${side}-`)) : null;
const dirs: Record<Side, string | null> = {
  project: await profileDir('project'),
  minimal: await profileDir('minimal'),
};
const nodeArgs = (side: Side) => (dirs[side] ? ['--cpu-prof', `--cpu-prof-dir=${dirs[side]}`] : []);
const env = { DATABASE_URL: db.url, RATE_LIMIT_PER_SECOND: '0' };
const servers: Record<Side, { server: RunningServer; base: string }> = {
  project: {
    server: await startServer(
      'bench/servers/api-server.ts',
      { ...env, RUN_WORKER: '1' },
      nodeArgs('project'),
    ),
    base: '/public/v1',
  },
  minimal: {
    server: await startServer(
      'bench/servers/minimal-server.ts',
      { ...env, MIN_API_KEY: key.key, MIN_BRAND_ID: brand.id },
      nodeArgs('minimal'),
    ),
    base: '',
  },
};

/** utime and stime of a process, in ticks. */
function processTicks(pid: number): [number, number] {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return [Number(fields[11]), Number(fields[12])];
}

function machineBusyTicks(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  return cpu.reduce((a, b) => a + b, 0) - cpu[3]! - cpu[4]!; // minus idle and iowait
}

/** The process listening on `port` (its socket's inode in /proc/net/tcp, then whose fd it is). */
function serverPid(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const line = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .find((l) => l.includes(`:${hex} 00000000:0000 0A`));
  const inode = line?.trim().split(/\s+/)[9];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return Number(pid);
      }
    } catch {
      // A process that ended meanwhile, or not ours to read.
    }
  }
  throw new Error(`no process listens on ${port}`);
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const headers = { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' };
const body = JSON.stringify({
  customer_email: 'b@example.com',
  delivery_address: '12 rue Oberkampf 75011 Paris',
});
const routes = (process.env.CPU_SPLIT_ROUTES ?? 'detail,list,post').split(',');
const seconds = Number(process.env.CPU_SPLIT_SECONDS ?? 5);
const windows: Array<{ side: Side; route: string; from: number; to: number; requests: number }> = [];
for (const route of routes) {
  for (const side of ['project', 'minimal', 'project', 'minimal'] as const) {
    const { server, base } = servers[side];
    const url = `http://127.0.0.1:${server.port}${base}`;
    const target =
      route === 'post'
        ? { url: `${url}/orders`, method: 'POST' as const, body }
        : route === 'list'
          ? { url: `${url}/orders?limit=50`, method: 'GET' as const }
          : { url: `${url}/orders/${order.trackingRef}`, method: 'GET' as const };
    const pid = serverPid(server.port);
    const [user0, system0] = processTicks(pid);
    const own0 = process.cpuUsage();
    const machine0 = machineBusyTicks();
    const from = nowUs();
    const result = await autocannon({ ...target, headers, connections: 50, duration: seconds });
    windows.push({ side, route, from, to: nowUs(), requests: result.requests.total });
    const [user1, system1] = processTicks(pid);
    const serverMs = (user1 + system1 - user0 - system0) * TICK_MS;
    const own = process.cpuUsage(own0);
    const loadMs = (own.user + own.system) / 1000;
    const machineMs = (machineBusyTicks() - machine0) * TICK_MS;
    const n = result.requests.total;
    const per = (ms: number) => ((1000 * ms) / n).toFixed(0).padStart(4);
    console.log(
      `${route.padEnd(6)} ${side.padEnd(7)} ${String(Math.round(result.requests.average)).padStart(6)} req/s  µs/request: ` +
        `server ${per(serverMs)} (kernel ${per((system1 - system0) * TICK_MS)})  postgres+other ${per(machineMs - serverMs - loadMs)}  ` +
        `load ${per(loadMs)}  total ${per(machineMs)}  (${result.non2xx} non-2xx)`,
    );
  }
}
for (const { server } of Object.values(servers)) await server.stop();
for (const w of profile ? windows : []) {
  console.log(`\n${w.route}, ${w.side}:\n`);
  console.log(cpuTable(await cpuByModule(dirs[w.side]!, w.from, w.to), w.requests, 20).join('\n'));
}
await pool.end();
await db.drop();
process.exit(0);
