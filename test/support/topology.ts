import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.ts';
import { createPool } from '../../src/db/pool.ts';
import { createDeps, type Deps } from '../../src/deps.ts';
import { freePort } from '../../src/infra/embedded-postgres.ts';
import { testOperator } from './audit.ts';
import {
  type ComposeFile,
  environmentOf,
  modeOf,
  ROOT,
  readCompose,
  type ServiceCommand,
  type ServiceMode,
  serviceCommand,
} from './compose-file.ts';
import { type BackendServer, readBackendServers, renderHaproxyConfig } from './haproxy.ts';
import { findBinary, topologyDatabase, topologyRedis } from './topology-infra.ts';

/**
 * compose.yaml's topology without Docker: each service of the application's image started as a
 * process on loopback with its compose environment (the infrastructure's addresses replaced by the
 * loopback ones), the committed haproxy configuration in front of the API instances, PostgreSQL a
 * throw-away database (the machine's server, else a cluster of the test's own) and Redis a
 * redis-server of the test's own.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One process of the topology (a compose service, or one replica of it). */
interface ServiceProcess {
  name: string;
  mode: ServiceMode;
  port: number;
  child: ChildProcess;
  output(): string;
  exited: Promise<ExitStatus>;
  /** Sends the signal and resolves once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<ExitStatus>;
}

interface ProcessSpec {
  name: string;
  mode: ServiceMode;
  port: number;
  command: ServiceCommand;
  env: Record<string, string>;
}

const OUTPUT_LIMIT = 256 * 1024;

function launch(spec: ProcessSpec): ServiceProcess {
  const [file, ...args] = spec.command.argv;
  const child = spawn(file!, args, { cwd: ROOT, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk;
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT / 2);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    name: spec.name,
    mode: spec.mode,
    port: spec.port,
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Resolves once the process answers 200 on its ready path (or says its worker started); rejects if it exits first. */
async function waitReady(proc: ServiceProcess, readyPath: string | null, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void proc.exited.then(() => {
    dead = true;
  });
  for (;;) {
    if (dead) throw new Error(`${proc.name} exited before it was ready:\n${proc.output().slice(-4000)}`);
    if (Date.now() > deadline)
      throw new Error(`${proc.name} not ready after ${timeoutMs} ms:\n${proc.output().slice(-4000)}`);
    if (readyPath === null) {
      if (/worker started/.test(proc.output())) return;
    } else {
      const ok = await fetch(`http://127.0.0.1:${proc.port}${readyPath}`, {
        signal: AbortSignal.timeout(2000),
      })
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) return;
    }
    await sleep(100);
  }
}

export interface Topology {
  /** The load balancer's public API base (`http://127.0.0.1:<port>/public/v1`). */
  base: string;
  databaseUrl: string;
  apis: ServiceProcess[];
  workers: ServiceProcess[];
  /** What was started where, for the test's `[topology]` line. */
  summary: string;
  /** The same service started again with the same command, environment and port, once ready. */
  restart(proc: ServiceProcess): Promise<ServiceProcess>;
  servers(): Promise<Record<string, BackendServer>>;
  waitForServer(name: string, status: 'UP' | 'DOWN', timeoutMs?: number): Promise<void>;
  /** The last lines every process wrote, for a failure's message. */
  logs(): string;
  close(): Promise<void>;
}

export interface TopologyOptions {
  /** Set in every application process's environment, after compose's (e.g. WEBHOOKS_ALLOW_INSECURE for a loopback receiver). */
  overrides?: Record<string, string>;
}

/** Starts compose.yaml's services as processes, in compose's order: migrate (exit 0), workers, APIs, then haproxy. */
export async function startTopology(options: TopologyOptions = {}): Promise<Topology> {
  const haproxy = findBinary('haproxy');
  if (!haproxy) throw new Error('haproxy is not installed (apt-get install -y haproxy)');
  const cleanups: (() => Promise<unknown>)[] = [];
  const processes: ServiceProcess[] = [];
  const specs = new Map<ServiceProcess, ProcessSpec>();
  const close = async () => {
    for (const p of processes.reverse()) await p.stop('SIGKILL').catch(() => {});
    while (cleanups.length) await cleanups.pop()!().catch(() => {});
  };
  try {
    const database = await topologyDatabase();
    cleanups.push(() => database.drop());
    const redis = await topologyRedis();
    if (redis) cleanups.push(() => redis.stop());

    // The variables an operator must give (compose's `${X:?…}`); every other one keeps its default.
    const compose: ComposeFile = readCompose({
      POSTGRES_PASSWORD: 'unused-on-loopback',
      CURSOR_SECRET: randomBytes(32).toString('hex'),
    });
    const services = Object.entries(compose.services).flatMap(([name, service]) => {
      const mode = modeOf(service);
      if (!mode) return [];
      const replicas = service.deploy?.replicas ?? 1;
      const names = replicas > 1 ? Array.from({ length: replicas }, (_, i) => `${name}-${i + 1}`) : [name];
      return names.map((instance) => ({ instance, mode, service }));
    });
    // What the image runs for each mode (the `[topology]` line shows it: the entry point and the mode).
    const commands = new Set<string>();
    const specFor = async (entry: (typeof services)[number]): Promise<ProcessSpec> => {
      const command = serviceCommand(entry.service);
      commands.add(['node', ...command.argv.slice(1)].join(' '));
      const port = await freePort();
      const env: Record<string, string> = {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...environmentOf(entry.service),
        // The infrastructure's compose addresses (postgres:5432, redis:6379) on loopback.
        DATABASE_URL: database.url,
        HOST: '127.0.0.1',
        PORT: String(port),
        ...options.overrides,
      };
      if (redis) env.REDIS_URL = redis.url;
      else delete env.REDIS_URL;
      return { name: entry.instance, mode: entry.mode, port, command, env };
    };
    const start = async (spec: ProcessSpec) => {
      const proc = launch(spec);
      processes.push(proc);
      specs.set(proc, spec);
      await waitReady(proc, spec.command.readyPath);
      return proc;
    };

    for (const entry of services.filter((s) => s.mode === 'migrate')) {
      const proc = launch(await specFor(entry));
      processes.push(proc);
      const status = await proc.exited;
      if (status.code !== 0)
        throw new Error(`${entry.instance} exited with ${status.code ?? status.signal}:\n${proc.output()}`);
    }
    const workers = await Promise.all(
      services.filter((s) => s.mode === 'worker').map(async (entry) => start(await specFor(entry))),
    );
    const apis = await Promise.all(
      services.filter((s) => s.mode === 'api').map(async (entry) => start(await specFor(entry))),
    );

    // The load balancer: compose's `lb` mounts the committed configuration.
    const lb = Object.values(compose.services).find((s) => s.volumes?.some((v) => v.includes('haproxy.cfg')));
    const mount = lb?.volumes?.find((v) => v.includes('haproxy.cfg'))?.split(':')[0];
    if (!mount) throw new Error('compose.yaml has no load balancer mounting a haproxy.cfg');
    const committed = await readFile(path.join(ROOT, mount), 'utf8');
    const [lbPort, statsPort] = [await freePort(), await freePort()];
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-topology-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const cfg = path.join(dir, 'haproxy.cfg');
    await writeFile(
      cfg,
      renderHaproxyConfig(
        committed,
        Object.fromEntries(apis.map((a) => [a.name, a.port])),
        lbPort,
        statsPort,
      ),
    );
    const balancer = launch({
      name: 'lb',
      mode: 'api',
      port: lbPort,
      command: { argv: [haproxy, '-db', '-f', cfg], readyPath: null },
      env: { PATH: process.env.PATH ?? '' },
    });
    cleanups.push(() => balancer.stop('SIGKILL'));

    const servers = () => readBackendServers(statsPort);
    const waitForServer = async (name: string, status: 'UP' | 'DOWN', timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const state = await servers().catch(() => ({}) as Record<string, BackendServer>);
        if (state[name]?.status.startsWith(status)) return;
        if (balancer.child.exitCode !== null) throw new Error(`haproxy exited:\n${balancer.output()}`);
        if (Date.now() > deadline)
          throw new Error(
            `haproxy: ${name} not ${status} after ${timeoutMs} ms (${JSON.stringify(state[name])})`,
          );
        await sleep(100);
      }
    };
    for (const api of apis) await waitForServer(api.name, 'UP');

    const topology: Topology = {
      base: `http://127.0.0.1:${lbPort}/public/v1`,
      databaseUrl: database.url,
      apis,
      workers,
      summary: [
        `commands: ${[...commands].join(', ')} (APIs ready on ${specs.get(apis[0]!)?.command.readyPath})`,
        `database: ${database.where}`,
        `redis: ${redis?.where ?? 'none (no redis-server nor TEST_REDIS_URL): rate limits in memory'}`,
        `${apis.length} APIs, ${workers.length} workers, haproxy on ${lbPort}`,
      ].join('; '),
      async restart(proc) {
        const spec = specs.get(proc);
        if (!spec) throw new Error(`${proc.name} was not started by the topology`);
        await proc.stop('SIGKILL');
        const next = await start(spec);
        for (const list of [topology.apis, topology.workers]) {
          const i = list.indexOf(proc);
          if (i >= 0) list[i] = next;
        }
        return next;
      },
      servers,
      waitForServer,
      logs: () => [...processes, balancer].map((p) => `--- ${p.name}\n${p.output().slice(-3000)}`).join('\n'),
      close,
    };
    return topology;
  } catch (err) {
    await close();
    throw err;
  }
}

export interface TopologyBrand {
  brandId: string;
  key: string;
}

/** A brand with an orders key (and its webhooks allowed), created on the topology's database as `dlv` would. */
export async function createTopologyBrand(
  databaseUrl: string,
): Promise<TopologyBrand & { deps: Deps; close(): Promise<void> }> {
  const pool = createPool(databaseUrl, 2);
  const deps = createDeps(loadConfig({ DATABASE_URL: databaseUrl, WEBHOOKS_ALLOW_INSECURE: '1' }), pool);
  const brand = await deps.brands.create(
    { name: 'Topology', pickupAddress: '1 rue de Rivoli 75001 Paris' },
    testOperator,
  );
  await deps.brands.setWebhooksAllowed(brand.id, true, testOperator);
  const key = await deps.apiKeys.create(
    { brandId: brand.id, scopes: 'orders:read,orders:write' },
    testOperator,
  );
  return { brandId: brand.id, key: key.key, deps, close: () => pool.end() };
}
