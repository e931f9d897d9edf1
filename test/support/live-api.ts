import type { Runner } from 'graphile-worker';
import { startWorker } from '../../src/worker.ts';
import { API, buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './app.ts';
import { createScratchDatabase } from './scratch-database.ts';

/**
 * The real API listening on 127.0.0.1 (random port) with its webhook worker, on a database of its
 * own: what the Zapier app and the n8n node talk to over HTTP in their tests, as they would in
 * production. Webhooks may go to loopback receivers (WEBHOOKS_ALLOW_INSECURE).
 *
 * `shiftClock(ms)` moves the API's clock (e.g. into last month, to have an invoice to issue);
 * `shiftClock(0)` brings it back to real time.
 */
export async function startLiveApi() {
  const scratch = await createScratchDatabase();
  let offsetMs = 0;
  let t: TestApp | undefined;
  let runner: Runner | undefined;
  try {
    t = await buildTestApp({
      config: { databaseUrl: scratch.url, webhooksAllowInsecure: true },
      clock: () => new Date(Date.now() + offsetMs),
    });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 4 });
    const app = t;
    const worker = runner;
    return {
      t: app,
      /** The public API's base URL, e.g. http://127.0.0.1:40123/public/v1. */
      base: `${address}${API}`,
      shiftClock(ms: number) {
        offsetMs = ms;
      },
      /** A brand allowed to manage webhook subscriptions, with a key of every scope. */
      async brand(options: Parameters<typeof createBrandWithKey>[1] = {}): Promise<TestBrand> {
        return createBrandWithKey(app.deps, options);
      },
      async close() {
        await worker.stop();
        await app.close();
        await scratch.drop();
      },
    };
  } catch (error) {
    await runner?.stop();
    await t?.close();
    await scratch.drop();
    throw error;
  }
}

export type LiveApi = Awaited<ReturnType<typeof startLiveApi>>;
