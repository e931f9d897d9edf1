import { type Runner, startWorker } from '../../src/worker.ts';
import { API, buildTestApp, createBrandWithKey, createTestKey, type TestApp, type TestBrand } from './app.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { type SpawnedServer, spawnServer } from './spawn-server.ts';

/**
 * The real API listening on 127.0.0.1 (random port) with its webhook worker, on a database of its
 * own: what the Zapier app and the n8n node talk to over HTTP in their tests, as they would in
 * production. Webhooks may go to loopback receivers (WEBHOOKS_ALLOW_INSECURE).
 *
 * `ownProcess`: the API runs as `npm start` in a child process. Zapier's runtime patches
 * `http.request` of the process it runs in (to log every call), and its patch drops the options
 * of `request(url, options, callback)` calls — the webhook sender's; in production Zapier and the
 * API never share a process, so neither do they in the Zapier tests. `t` (deps and pool on the
 * same database) then serves to create brands; `shiftClock` moves only its clock (e.g. into last
 * month, to have an invoice to issue), `shiftClock(0)` brings it back. It caches which event types
 * each brand listens to, refreshed every 2 s like any other instance: what must see a subscription
 * made just now goes through the API or the `dlv` command line instead.
 */
export async function startLiveApi(options: { ownProcess?: boolean } = {}) {
  const scratch = await createScratchDatabase();
  let offsetMs = 0;
  let t: TestApp | undefined;
  let runner: Runner | undefined;
  let server: SpawnedServer | undefined;
  const stop = async () => {
    await runner?.stop();
    if (server) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await t?.close();
    await scratch.drop();
  };
  try {
    t = await buildTestApp({
      config: { databaseUrl: scratch.url, webhooksAllowInsecure: true, connectorsAllowInsecure: true },
      clock: () => new Date(Date.now() + offsetMs),
    });
    let base: string;
    if (options.ownProcess) {
      server = await spawnServer({
        DATABASE_URL: scratch.url,
        PORT: '0',
        WEBHOOKS_ALLOW_INSECURE: '1',
        RATE_LIMIT_PER_SECOND: '0',
      });
      base = server.base;
    } else {
      base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}${API}`;
      runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 4 });
    }
    const app = t;
    return {
      t: app,
      /** The public API's base URL, e.g. http://127.0.0.1:40123/public/v1. */
      base,
      /** Its database, for the operator's `dlv` commands. */
      databaseUrl: scratch.url,
      shiftClock(ms: number) {
        offsetMs = ms;
      },
      /** A brand (allowed to manage webhook subscriptions unless told otherwise) with a key of every scope. */
      async brand(brandOptions: Parameters<typeof createBrandWithKey>[1] = {}): Promise<TestBrand> {
        return createBrandWithKey(app.deps, brandOptions);
      },
      /** A test key (`dlv_test_…`, every scope) of a brand made by `brand()`: test mode. */
      async testKey(live: Pick<TestBrand, 'brandId'>): Promise<TestBrand> {
        return createTestKey(app.deps, live);
      },
      close: stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type LiveApi = Awaited<ReturnType<typeof startLiveApi>>;
