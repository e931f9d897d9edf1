import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** stdout's lines parsed as JSON (every one must be: a line that is not fails the test's parse). */
  logLines(): Record<string, unknown>[];
  stdout(): string;
  stderr(): string;
  /** Resolves with the first log line `match` accepts (rejects if the process exits first, or after 60 s). */
  waitForLog(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/** `node dist/service.js <mode>` (the compiled build, as deployed) with only `env` (plus PATH and HOME). */
export function startService(mode: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['dist/service.js', mode], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout!.on('data', (d) => {
    stdout += d;
    for (const w of waiters) w();
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const w of waiters) w();
      resolve({ code, signal });
    }),
  );
  const logLines = () =>
    stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    logLines,
    stdout: () => stdout,
    stderr: () => stderr,
    exit,
    waitForLog(match) {
      return new Promise((resolve, reject) => {
        const check = () => {
          // Only whole lines: the last one may still be arriving.
          const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
          const found = complete
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as Record<string, unknown>)
            .find(match);
          if (found) done(() => resolve(found));
          else if (child.exitCode !== null || child.signalCode !== null)
            done(() =>
              reject(new Error(`exited (${child.exitCode ?? child.signalCode}):\n${stdout}\n${stderr}`)),
            );
        };
        const timer = setTimeout(
          () => done(() => reject(new Error(`no such log line in 60 s:\n${stdout}\n${stderr}`))),
          60_000,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    },
  };
}

/** A loopback port free right now (nothing listens there: a "closed port" for a dependency that is down). */
export { freePort } from '../../src/infra/embedded-postgres.ts';

/** The port a service process listens on, from Fastify's "Server listening at" line. */
export async function listeningPort(service: ServiceProcess): Promise<number> {
  const line = await service.waitForLog((l) => String(l.msg).startsWith('Server listening at'));
  return Number(/:(\d+)$/.exec(String(line.msg))![1]);
}

/** Polls `probe` (every 100 ms) until it returns true; for states reached by another process. */
export async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
