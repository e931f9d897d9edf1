import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunningServer {
  port: number;
  stop(): Promise<void>;
}

/** Starts a bench server in its own process (so it does not share an event loop with the load). */
export function startServer(script: string, env: Record<string, string>): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const match = /READY (\d+)/.exec(out);
      if (match) {
        resolve({
          port: Number(match[1]),
          stop: () =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${out}`)));
  });
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A different request for each call (e.g. a fresh Idempotency-Key). */
  requests?: autocannon.Request[];
  connections?: number;
  durationSeconds?: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const base = {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    requests: options.requests,
    connections: options.connections ?? 50,
  };
  // Unmeasured warm-up: JIT, connection pools and caches reach their steady state first.
  await autocannon({ ...base, duration: Number(process.env.BENCH_WARMUP_SECONDS ?? 2) });
  const result = await autocannon({
    ...base,
    duration: options.durationSeconds ?? Number(process.env.BENCH_SECONDS ?? 8),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export interface Row {
  scenario: string;
  result: LoadResult;
  reference?: { name: string; result: LoadResult };
  /** Minimal acceptable ratio to the reference's req/s. */
  targetRatio?: number;
  /** Maximal acceptable p99 in ms. */
  targetP99Ms?: number;
}

export function formatTable(rows: Row[]): string {
  const header = [
    'scenario',
    'req/s',
    'p99 ms',
    'reference',
    'ref req/s',
    'ref p99 ms',
    'ratio',
    'target',
    'ok',
  ];
  const lines = rows.map((r) => {
    const ratio = r.reference ? r.result.requestsPerSecond / r.reference.result.requestsPerSecond : null;
    const targets = [
      r.targetRatio !== undefined ? `≥ ${r.targetRatio}` : null,
      r.targetP99Ms !== undefined ? `p99 < ${r.targetP99Ms} ms` : null,
    ].filter(Boolean);
    const ok =
      (r.targetRatio === undefined || (ratio !== null && ratio >= r.targetRatio)) &&
      (r.targetP99Ms === undefined || r.result.p99Ms < r.targetP99Ms) &&
      r.result.errors === 0 &&
      r.result.non2xx === 0;
    return [
      r.scenario,
      r.result.requestsPerSecond.toFixed(0),
      String(r.result.p99Ms),
      r.reference?.name ?? '-',
      r.reference ? r.reference.result.requestsPerSecond.toFixed(0) : '-',
      r.reference ? String(r.reference.result.p99Ms) : '-',
      ratio === null ? '-' : ratio.toFixed(2),
      targets.join(', ') || '-',
      ok
        ? 'yes'
        : `NO${r.result.errors || r.result.non2xx ? ` (${r.result.errors} errors, ${r.result.non2xx} non-2xx)` : ''}`,
    ];
  });
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => l[i]!.length)));
  const fmt = (l: string[]) => `| ${l.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}
