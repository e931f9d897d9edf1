/**
 * Noisy neighbour: one brand hammers the API far beyond its rate limit while another brand makes
 * ordinary calls; the quiet brand's p99 must stay within 20 % of its value when nobody hammers.
 *
 * The quiet brand's latency is measured here, open-loop (requests leave on a fixed schedule, so a
 * slow answer cannot hide the ones queued behind it) and in fractional milliseconds — autocannon
 * rounds to whole ones, too coarse to compare 2 ms with 2.4 ms. The hammer (bench/hammer.ts, evenly
 * paced) runs in a separate process so that its client work does not delay this event loop.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HAMMER = 'bench/hammer.ts';

export interface LatencyResult {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

export interface NoisyNeighbourOptions {
  /** The quiet brand's request: a URL and its headers (a GET). */
  url: string;
  headers: Record<string, string>;
  /** Requests per second of the quiet brand: keep it under its own rate limit. */
  rate: number;
  /** The hammering brand's request. */
  hammerUrl: string;
  hammerHeaders: Record<string, string>;
  /** Requests per second the hammering brand tries (with 50 connections). */
  hammerRate: number;
  seconds: number;
  rounds: number;
}

export interface NoisyNeighbourResult {
  quiet: LatencyResult;
  loaded: LatencyResult;
  /** Responses the hammering brand got, by status. */
  hammerStatuses: Record<string, number>;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

/** `rate` GETs per second for `seconds`, each timed from the moment it was due to leave. */
async function measureLatency(
  url: string,
  headers: Record<string, string>,
  rate: number,
  seconds: number,
): Promise<{ times: number[]; failures: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const times: number[] = [];
  let failures = 0;
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      new Promise<void>((resolve) => {
        const req = request(url, { headers, agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) times.push(performance.now() - due);
            else failures++;
            resolve();
          });
        });
        req.on('error', () => {
          failures++;
          resolve();
        });
        req.end();
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  return { times, failures };
}

function summarise(samples: Array<{ times: number[]; failures: number }>): LatencyResult {
  const times = samples.flatMap((s) => s.times).sort((a, b) => a - b);
  return {
    requests: times.length,
    p50Ms: percentile(times, 0.5),
    p99Ms: percentile(times, 0.99),
    failures: samples.reduce((sum, s) => sum + s.failures, 0),
  };
}

/** The last CPU, for the hammer, when there are at least two and `taskset` exists; else null. */
export function hammerCpu(): number | null {
  const cpus = os.availableParallelism();
  if (cpus < 2) return null;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return cpus - 1;
  } catch {
    return null;
  }
}

function startHammer(options: NoisyNeighbourOptions): {
  child: ChildProcess;
  done: Promise<Record<string, number>>;
} {
  const args = [
    '--import',
    'tsx',
    HAMMER,
    options.hammerUrl,
    options.hammerHeaders.authorization ?? '',
    String(options.hammerRate),
    String(options.seconds + 2),
  ];
  // The flooding brand's client runs on its own machines in real life, so here it gets a core to
  // itself: what is measured is what the server's handling of the flood costs the other brand, not
  // the load generator's own CPU.
  const cpu = hammerCpu();
  const command =
    cpu === null ? [process.execPath, ...args] : ['taskset', '-c', String(cpu), process.execPath, ...args];
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  const done = new Promise<Record<string, number>>((resolve) => {
    child.once('exit', () => {
      try {
        resolve(JSON.parse(out) as Record<string, number>);
      } catch {
        resolve({});
      }
    });
  });
  return { child, done };
}

/** Alternates quiet and hammered rounds so that drift on the machine affects both alike. */
export async function noisyNeighbour(options: NoisyNeighbourOptions): Promise<NoisyNeighbourResult> {
  await measureLatency(options.url, options.headers, options.rate, 2); // warm-up
  const quiet: Array<{ times: number[]; failures: number }> = [];
  const loaded: Array<{ times: number[]; failures: number }> = [];
  const hammerStatuses: Record<string, number> = {};
  for (let round = 0; round < options.rounds; round++) {
    quiet.push(await measureLatency(options.url, options.headers, options.rate, options.seconds));
    const hammer = startHammer(options);
    await new Promise((r) => setTimeout(r, 1500)); // the hammer reaches its full rate first
    loaded.push(await measureLatency(options.url, options.headers, options.rate, options.seconds));
    for (const [status, count] of Object.entries(await hammer.done)) {
      hammerStatuses[status] = (hammerStatuses[status] ?? 0) + count;
    }
  }
  return { quiet: summarise(quiet), loaded: summarise(loaded), hammerStatuses };
}
