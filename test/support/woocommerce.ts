import { expect } from 'vitest';
import { type Runner, startWorker } from '../../src/worker.ts';
import { buildTestApp, createBrandWithKey, type TestApp } from './app.ts';
import { type FakeWooCommerce, startFakeWooCommerce } from './fake-woocommerce.ts';
import { onPickedPort } from './picked-port.ts';
import { createScratchDatabase } from './scratch-database.ts';
import { CONNECTOR_KEY } from './shopify.ts';

/**
 * The service listening on loopback with its worker, on its own database, beside a fake
 * WooCommerce (one-click callbacks over http allowed) — what a shop talks to in production.
 */
export async function startWooBridge() {
  const scratch = await createScratchDatabase();
  let t: TestApp | undefined;
  let runner: Runner | undefined;
  let fake: FakeWooCommerce | undefined;
  const stop = async () => {
    await runner?.stop();
    await t?.close();
    await fake?.close();
    await scratch.drop();
  };
  try {
    // The bridge's public address (its webhook and callback URLs) is known before it listens.
    const bound = await onPickedPort(async (port) => {
      const base = `http://127.0.0.1:${port}`;
      const app = await buildTestApp({
        config: {
          databaseUrl: scratch.url,
          publicBaseUrl: base,
          connectorsAllowInsecure: true,
          connectorSecretKey: CONNECTOR_KEY,
          woocommerce: true,
        },
      });
      return {
        value: { app, base },
        listen: () => app.app.listen({ port, host: '127.0.0.1' }),
        close: () => app.close(),
      };
    });
    const { app, base } = bound;
    t = app;
    runner = await startWorker(t.deps, { pollIntervalMs: 100, concurrency: 4 });
    fake = await startFakeWooCommerce({ insecureCallbacks: true, deliveryTimeoutMs: 5000 });
    const woo = fake;
    return {
      t: app,
      fake,
      base,
      databaseUrl: scratch.url,
      brand: (options: Parameters<typeof createBrandWithKey>[1] = {}) =>
        createBrandWithKey(app.deps, options),
      /** A new shop of the fake linked to the brand with a key pair made in its admin (what the account form and the CLI do). */
      async linkShop(
        brandId: string,
        slug: string,
        shopOptions: Parameters<FakeWooCommerce['addShop']>[1] = {},
      ) {
        woo.addShop(slug, shopOptions);
        const key = woo.createKey(slug);
        return app.deps.woocommerce!.linking.link({
          brandId,
          url: woo.url(slug),
          consumerKey: key.consumerKey,
          consumerSecret: key.consumerSecret,
        });
      },
      close: stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

export type WooBridge = Awaited<ReturnType<typeof startWooBridge>>;

/** Waits until `check` returns something truthy (the worker is asynchronous). */
export async function eventually<T>(
  check: () => Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Our shipping method on a checkout: the plugin's `dlv` rate with its service in the item meta. */
export const OUR_SHIPPING = (service = 'express') => ({
  method_id: 'dlv',
  method_title: 'Express — livré demain',
  instance_id: '7',
  total: '12.90',
  meta: [{ key: 'dlv_service', value: service }],
});
