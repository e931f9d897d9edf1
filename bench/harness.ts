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
}

function autocannonOptions(options: LoadOptions) {
  return {
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    requests: options.requests,
    connections: options.connections ?? 50,
  };
}

function toLoadResult(result: autocannon.Result): LoadResult {
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The middle value (the lower one of an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Rounds of one load folded into one figure: mean throughput, median p50 and p99, summed failures. */
function combine(rounds: LoadResult[]): LoadResult {
  return {
    requestsPerSecond: rounds.reduce((sum, r) => sum + r.requestsPerSecond, 0) / rounds.length,
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

/**
 * Measures a subject and its reference in alternating rounds (subject, reference, subject, …), so a
 * burst of outside load on this shared machine hits both sides alike instead of whichever ran in
 * that moment. Each side gets an unmeasured warm-up first (JIT, pools and caches reach their
 * steady state). BENCH_SECONDS is the measured time per side, BENCH_ROUNDS how it is split.
 */
export async function compare(
  subject: LoadOptions,
  reference: LoadOptions,
): Promise<{ result: LoadResult; reference: LoadResult }> {
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
  const seconds = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8) / rounds);
  await autocannon({ ...autocannonOptions(reference), duration: warmup });
  await autocannon({ ...autocannonOptions(subject), duration: warmup });
  const subjectRounds: LoadResult[] = [];
  const referenceRounds: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    subjectRounds.push(toLoadResult(await autocannon({ ...autocannonOptions(subject), duration: seconds })));
    referenceRounds.push(
      toLoadResult(await autocannon({ ...autocannonOptions(reference), duration: seconds })),
    );
  }
  return { result: combine(subjectRounds), reference: combine(referenceRounds) };
}

export interface Row {
  scenario: string;
  result: LoadResult;
  reference?: { name: string; result: LoadResult };
  /** Minimal acceptable ratio to the reference's req/s. */
  targetRatio?: number;
  /** Maximal acceptable p99 in ms. */
  targetP99Ms?: number;
  /** Maximal acceptable p99 as a multiple of the reference's p99 (the ratio column then compares p99s). */
  targetP99Factor?: number;
}

const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

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
    const p99Ratio = r.reference ? r.result.p99Ms / r.reference.result.p99Ms : null;
    const targets = [
      r.targetRatio !== undefined ? `≥ ${r.targetRatio}` : null,
      r.targetP99Ms !== undefined ? `p99 < ${r.targetP99Ms} ms` : null,
      r.targetP99Factor !== undefined ? `p99 ≤ ${r.targetP99Factor} × ref` : null,
    ].filter(Boolean);
    const ok =
      (r.targetRatio === undefined || (ratio !== null && ratio >= r.targetRatio)) &&
      (r.targetP99Ms === undefined || r.result.p99Ms < r.targetP99Ms) &&
      (r.targetP99Factor === undefined || (p99Ratio !== null && p99Ratio <= r.targetP99Factor)) &&
      r.result.errors === 0 &&
      r.result.non2xx === 0;
    return [
      r.scenario,
      r.result.requestsPerSecond.toFixed(0),
      ms(r.result.p99Ms),
      r.reference?.name ?? '-',
      r.reference ? r.reference.result.requestsPerSecond.toFixed(0) : '-',
      r.reference ? ms(r.reference.result.p99Ms) : '-',
      r.targetP99Factor !== undefined
        ? `p99 × ${p99Ratio?.toFixed(2) ?? '-'}`
        : ratio === null
          ? '-'
          : ratio.toFixed(2),
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
