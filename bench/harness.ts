import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Author } from '../src/domain/audit/actor.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface RunningServer {
  port: number;
  /** The process's id (to read its CPU time in /proc). */
  pid: number;
  /** What it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a bench server in its own process (so it does not share an event loop with the load);
 * `nodeArgs` go to node itself (e.g. --cpu-prof). Stopping twice is harmless.
 */
export function startServer(
  script: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  /**
   * `compiled`: a built program run as the image runs it (no tsx), with `args`; `ready`: what in its
   * output says it is up, for programs that do not print `READY <port>` (their port is then 0).
   */
  options: { compiled?: boolean; ready?: RegExp; args?: string[] } = {},
): Promise<RunningServer> {
  const program = [script, ...(options.args ?? [])];
  const args = options.compiled ? [...nodeArgs, ...program] : [...nodeArgs, '--import', 'tsx', ...program];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    // The load generators open their connections from the loopback address, past the per-address cap.
    env: { ...process.env, MAX_CONNECTIONS_PER_ADDRESS: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let stopping: Promise<void> | null = null;
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const match = (options.ready ?? /READY (\d+)/).exec(out);
      if (match) {
        resolve({
          port: Number(match[1] ?? 0),
          pid: child.pid!,
          output: () => out,
          stop: () => {
            if (!stopping) {
              child.kill('SIGTERM');
              stopping = exited;
            }
            return stopping;
          },
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
  /** With a `settle` step: the time it took after each run, and req/s counted over run + settle. */
  drained?: { seconds: number; requestsPerSecond: number };
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
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
  const drained = rounds.flatMap((r) => (r.drained ? [r.drained] : []));
  return {
    requestsPerSecond: mean(rounds.map((r) => r.requestsPerSecond)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    drained:
      drained.length === rounds.length
        ? {
            seconds: mean(drained.map((d) => d.seconds)),
            requestsPerSecond: mean(drained.map((d) => d.requestsPerSecond)),
          }
        : undefined,
  };
}

/** One load of `seconds`; with `settle`, also its throughput counted over the load and the settling. */
export async function measure(
  load: LoadOptions,
  seconds: number,
  settle?: () => Promise<number>,
): Promise<LoadResult> {
  const result = toLoadResult(await autocannon({ ...autocannonOptions(load), duration: seconds }));
  if (!settle) return result;
  const settled = await settle();
  const requestsPerSecond = (result.requestsPerSecond * seconds) / (seconds + settled);
  return { ...result, drained: { seconds: settled, requestsPerSecond } };
}

/**
 * Loads a side until its throughput is steady: at least `seconds`, then one-second loads until two
 * in a row agree within 10 % (at most 10 s more). A large application's JIT takes longer to settle
 * than a small one's (the API needs ~3 s where bare Fastify needs ~1 s here), and a fixed warm-up
 * short of that would measure its warm-up, not its steady state, in the first round.
 */
async function warmUp(load: LoadOptions, seconds: number, settle?: () => Promise<number>): Promise<void> {
  await measure(load, seconds, settle);
  let last = (await measure(load, 1, settle)).requestsPerSecond;
  for (let i = 0; i < 10; i++) {
    const now = (await measure(load, 1, settle)).requestsPerSecond;
    if (Math.abs(now - last) <= 0.1 * Math.max(now, last)) return;
    last = now;
  }
}

export interface CompareOptions {
  /**
   * Run after every load, warm-ups included, before the next one starts (e.g. waiting for the job
   * queue to drain); returns the seconds it took, which the `drained` figures count.
   */
  settle?: () => Promise<number>;
}

/**
 * Measures a subject and its references in alternating rounds (subject, references…, subject, …),
 * so a burst of outside load on this shared machine hits all sides alike instead of whichever ran
 * in that moment. Each side gets an unmeasured warm-up first (JIT, pools and caches reach their
 * steady state). BENCH_SECONDS is the measured time per side, BENCH_ROUNDS how it is split.
 */
export async function compareAll(
  subject: LoadOptions,
  references: LoadOptions[],
  options: CompareOptions = {},
): Promise<{ result: LoadResult; references: LoadResult[] }> {
  const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
  const seconds = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8) / rounds);
  const sides = [subject, ...references];
  for (const side of [...references, subject]) await warmUp(side, warmup, options.settle);
  const measured: LoadResult[][] = sides.map(() => []);
  for (let i = 0; i < rounds; i++) {
    for (const [j, side] of sides.entries()) measured[j]!.push(await measure(side, seconds, options.settle));
  }
  const [result, ...others] = measured.map(combine);
  return { result: result!, references: others };
}

export async function compare(
  subject: LoadOptions,
  reference: LoadOptions,
): Promise<{ result: LoadResult; reference: LoadResult }> {
  const { result, references } = await compareAll(subject, [reference]);
  return { result, reference: references[0]! };
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
  /** Any other target, already judged (e.g. how long a queue took to drain). */
  check?: { target: string; met: boolean };
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
      r.check?.target ?? null,
    ].filter(Boolean);
    const ok =
      (r.targetRatio === undefined || (ratio !== null && ratio >= r.targetRatio)) &&
      (r.targetP99Ms === undefined || r.result.p99Ms < r.targetP99Ms) &&
      (r.targetP99Factor === undefined || (p99Ratio !== null && p99Ratio <= r.targetP99Factor)) &&
      (r.check === undefined || r.check.met) &&
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
        ? targets.length > 0
          ? '✔'
          : '-'
        : `✘${r.result.errors || r.result.non2xx ? ` (${r.result.errors} errors, ${r.result.non2xx} non-2xx)` : ''}`,
    ];
  });
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => l[i]!.length)));
  const fmt = (l: string[]) => `| ${l.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n');
}

/** The author of the changes the benchmarks make through the services, as `dlv` would name it. */
export const BENCH_OPERATOR: Author = { actor: { kind: 'cli', label: 'bench@localhost' }, origin: null };
