import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface SpawnedServer {
  child: ChildProcess;
  /** The public API's base URL, as the start-up banner prints it. */
  base: string;
  /** Everything the server wrote so far, stdout and stderr. */
  output(): string;
  exited: Promise<void>;
}

/**
 * `npm start`'s command as a child process with only `env` (plus PATH, HOME and the defaults below),
 * in `cwd` (this checkout, or a copy of it), under `options.umask` if given, resolved once the banner
 * says it is listening; rejected if it exits first or takes over 30 s.
 */
export async function spawnServer(
  env: Record<string, string>,
  cwd = ROOT,
  options: { umask?: string } = {},
): Promise<SpawnedServer> {
  // What `npm start` runs (the compiled build; test/support/build-setup.ts keeps it fresh).
  const command = [process.execPath, 'dist/service.js', 'all'];
  // With a umask: through a shell that sets it, then becomes the server (exec: signals reach it).
  const [file, ...args] = options.umask
    ? ['sh', '-c', `umask ${options.umask} && exec "$0" "$@"`, ...command]
    : command;
  const child = spawn(file!, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      // The chaos tests open hundreds of connections at once, all from the loopback address.
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      // SIGTERM closes at once: these tests measure the stop, not a load balancer's drain.
      SHUTDOWN_DRAIN_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = /listening on (http:\/\/\S+\/public\/v1)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    // The banner is on stderr when stdout is not a terminal (stdout carries the JSON logs).
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}):\n${output}`));
    });
  });
  return { child, base, output: () => output, exited };
}
