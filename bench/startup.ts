/**
 * Start-up and memory (issue #25), hyperfine-like: each command run BENCH_STARTUP_RUNS times (5 by
 * default) as a fresh node child process, medians reported, beside the same through tsx (how it ran
 * before the compiled build) as the reference. Targets: `dlv --help` < 0.5 s, a `dlv` command < 1 s,
 * an API restarted on an existing database answering its first /ping < 3 s, its RSS at rest ≤ 120 MB.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const BASE_ENV = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Wall time of `node …args` to its exit, in ms; throws on a non-zero exit. */
function timeToExit(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...BASE_ENV, ...env }, stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`${args.join(' ')} exited ${code}`)),
    );
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** An API started on `databaseUrl`: ms from spawn to its first 200 on /ping, then its RSS after 3 s at rest. */
async function restartToPing(args: string[], databaseUrl: string): Promise<{ ms: number; rssMb: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...BASE_ENV,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SHUTDOWN_DRAIN_MS: '0',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/public/v1/ping`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 120_000) throw new Error('no /ping answer in 120 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    return { ms, rssMb: rssKb / 1024 };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function repeat<T>(work: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < RUNS; i++) results.push(await work());
  return results;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT MET');

/** The start-up section of `npm run bench` (BENCH_ONLY=startup): notes, one per figure. */
export async function benchStartup(databaseUrl: string): Promise<string[]> {
  const dlv = ['bin/dlv.js'];
  const dlvTsx = ['--import', 'tsx', '--input-type=module', '-e', TSX_DLV];
  const env = { DATABASE_URL: databaseUrl };
  // Once first: dist/ rebuilt if stale, caches warm; not counted.
  await timeToExit([...dlv, '--help'], {});
  const help = median(await repeat(() => timeToExit([...dlv, '--help'], {})));
  const helpTsx = median(await repeat(() => timeToExit([...dlvTsx, '--help'], {})));
  const command = median(await repeat(() => timeToExit([...dlv, 'brands', 'list', '--json'], env)));
  const commandTsx = median(await repeat(() => timeToExit([...dlvTsx, 'brands', 'list', '--json'], env)));
  // The compiled API as the image runs it (the Dockerfile's NODE_OPTIONS caps the young generation).
  const api = await repeat(() =>
    restartToPing(['--max-semi-space-size=4', 'dist/service.js', 'api'], databaseUrl),
  );
  const apiTsx = await repeat(() => restartToPing(['--import', 'tsx', 'src/service.ts', 'api'], databaseUrl));
  const ping = median(api.map((r) => r.ms));
  const rss = median(api.map((r) => r.rssMb));
  return [
    `Start-up (median of ${RUNS} runs each, compiled vs tsx): \`dlv --help\` ${s(help)} vs ${s(helpTsx)} (target < 0.5 s: ${verdict(help < 500)})`,
    `\`dlv brands list --json\` ${s(command)} vs ${s(commandTsx)} (target < 1 s: ${verdict(command < 1000)})`,
    `API restart to first /ping on an existing database ${s(ping)} vs ${s(median(apiTsx.map((r) => r.ms)))} (target < 3 s: ${verdict(ping < 3000)})`,
    `API RSS at rest ${rss.toFixed(0)} MB vs ${median(apiTsx.map((r) => r.rssMb)).toFixed(0)} MB under tsx (target ≤ 120 MB: ${verdict(rss <= 120)})`,
  ];
}

/** How `dlv` ran before the build: the TypeScript sources through tsx. */
const TSX_DLV = `const { runCli } = await import('./src/cli/main.ts'); process.exit(await runCli(process.argv.slice(1)));`;
