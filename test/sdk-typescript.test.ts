import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DlvApiError,
  DlvClient,
  isApiError,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../sdks/typescript/src/index.ts';
import type { TestBrand } from './support/app.ts';
import { type LiveApi, startLiveApi } from './support/live-api.ts';
import { VALID_ORDER } from './support/orders.ts';
import { type Receiver, startReceiver } from './support/webhook-receiver.ts';

const run = promisify(execFile);
const SDK = path.resolve(import.meta.dirname, '../sdks/typescript');

let api: LiveApi;
let receiver: Receiver;
let brand: TestBrand;
let client: DlvClient;

beforeAll(async () => {
  api = await startLiveApi();
  receiver = await startReceiver();
  brand = await api.brand({ name: 'Maison SDK TypeScript' });
  // Test mode: what a developer integrating uses (its orders are never dispatched nor billed).
  client = new DlvClient({ apiKey: (await api.testKey(brand)).key, baseUrl: api.base });
});
afterAll(async () => {
  await receiver?.close();
  await api?.close();
});

describe('the TypeScript SDK against the running API', () => {
  it('creates, fetches, lists page after page and cancels orders with a test key', async () => {
    const own = await api.testKey(await api.brand({ name: 'Maison pages' }));
    const sdk = new DlvClient({ apiKey: own.key, baseUrl: api.base });
    expect(sdk.testMode).toBe(true);
    const created = [];
    for (let i = 0; i < 5; i++)
      created.push(await sdk.createOrder({ ...VALID_ORDER, reference: `SDK-${i}` }));
    expect(created[0]!.order.status).toBe('pending');
    expect(created[0]!.order.livemode).toBe(false);

    const fetched = await sdk.getOrder(created[0]!.trackingRef);
    expect(fetched.order.reference).toBe('SDK-0');

    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await sdk.listOrders({ limit: 2, ...(cursor ? { cursor } : {}) });
      pages.push(page.orders.length);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(pages).toEqual([2, 2, 1]);

    const walked = [];
    for await (const order of sdk.iterateOrders({ limit: 2 })) walked.push(order.reference);
    expect(walked.sort()).toEqual(['SDK-0', 'SDK-1', 'SDK-2', 'SDK-3', 'SDK-4']);

    const cancelled = await sdk.cancelOrder(created[1]!.trackingRef);
    expect(cancelled.order.status).toBe('cancelled');
    const label = await sdk.getOrderLabel(created[0]!.trackingRef);
    expect(new TextDecoder().decode(label.slice(0, 5))).toBe('%PDF-');
  });

  it('simulates a test order: one step, the whole way to the door, a return; refused to a live key', async () => {
    const live = await api.brand({ name: 'Maison simulate' });
    const sdk = new DlvClient({ apiKey: (await api.testKey(live)).key, baseUrl: api.base });
    const { trackingRef } = await sdk.createOrder(VALID_ORDER);

    const one = await sdk.simulateOrder(trackingRef, { to: 'picked_up' });
    expect(one.order.status).toBe('picked_up');
    // simulate walks the street's steps: in transit, out for delivery, then the door.
    const delivered = await sdk.simulate(trackingRef, 'delivered');
    expect(delivered.order.status).toBe('delivered');
    const history = (await sdk.getOrder(trackingRef)).order.events.map((e) => e.status);
    expect(history).toEqual(['pending', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered']);
    await expect(sdk.simulate(trackingRef, 'delivered')).rejects.toMatchObject({
      code: 'simulation_out_of_order',
      status: 409,
    });

    const other = await sdk.createOrder(VALID_ORDER);
    const returned = await sdk.simulate(other.trackingRef, 'returned', { reason: 'refused' });
    expect(returned.order.status).toBe('returned');
    const attempts = (await sdk.getOrder(other.trackingRef)).order.events.filter(
      (e) => e.status === 'failed_attempt',
    );
    expect(attempts).toHaveLength(3);

    const liveSdk = new DlvClient({ apiKey: live.key, baseUrl: api.base });
    expect(liveSdk.testMode).toBe(false);
    const liveOrder = await liveSdk.createOrder(VALID_ORDER);
    const refused = await liveSdk.simulate(liveOrder.trackingRef, 'picked_up').catch((e: unknown) => e);
    expect(isApiError(refused, 'test_mode_only')).toBe(true);
    expect((refused as DlvApiError).status).toBe(403);
    // A test key does not see the live order.
    await expect(sdk.getOrder(liveOrder.trackingRef)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('throws typed errors carrying the envelope’s code, request id and details', async () => {
    const missing = await client.getOrder('DLV-0000000000').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(DlvApiError);
    expect(isApiError(missing, 'not_found')).toBe(true);
    expect((missing as DlvApiError).status).toBe(404);
    expect((missing as DlvApiError).requestId).toMatch(/\S/);

    const invalid = await client
      .createOrder({ customer_email: 'not an e-mail' } as never)
      .catch((e: unknown) => e);
    expect(isApiError(invalid, 'invalid_request')).toBe(true);
    expect((invalid as DlvApiError).details.map((d) => d.field)).toContain('customer_email');

    const stranger = new DlvClient({ apiKey: `dlv_${'0'.repeat(64)}`, baseUrl: api.base });
    await expect(stranger.getMe()).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('retries a 429 and a lost answer with the same Idempotency-Key: one (test) order', async () => {
    const own = await api.testKey(await api.brand({ name: 'Maison retries' }));
    const keys: string[] = [];
    let attempts = 0;
    // The network between the SDK and the API: the first attempt is refused with 429 (Retry-After: 1),
    // the second reaches the API but its answer is lost (a 502 from a proxy), the third gets through.
    const flaky: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      if (init?.method === 'POST') {
        keys.push(headers.get('idempotency-key') ?? '');
        attempts++;
        if (attempts === 1) return new Response('{}', { status: 429, headers: { 'retry-after': '1' } });
        if (attempts === 2) {
          await fetch(input, init);
          return new Response('bad gateway', { status: 502 });
        }
      }
      return fetch(input, init);
    };
    const sdk = new DlvClient({ apiKey: own.key, baseUrl: api.base, fetch: flaky });
    const started = Date.now();
    const created = await sdk.createOrder(VALID_ORDER);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    const owned = new DlvClient({ apiKey: own.key, baseUrl: api.base });
    const all = [];
    for await (const order of owned.iterateOrders()) all.push(order.tracking_ref);
    expect(all).toEqual([created.trackingRef]);
  });

  it('gives up after maxRetries with the last error typed', async () => {
    let attempts = 0;
    const busy: typeof fetch = async () => {
      attempts++;
      return Response.json(
        { ok: false, error: 'rate_limited', message: 'Slow down', request_id: 'req_1' },
        { status: 429, headers: { 'retry-after': '0' } },
      );
    };
    const sdk = new DlvClient({ apiKey: brand.key, baseUrl: api.base, fetch: busy, maxRetries: 2 });
    await expect(sdk.listOrders()).rejects.toMatchObject({ code: 'rate_limited', retryAfter: 0 });
    expect(attempts).toBe(3);
  });

  it('verifies a test-mode webhook delivery (Standard Webhooks) and refuses a tampered one', async () => {
    const subscribed = await client.createWebhookSubscription({
      url: receiver.url('/sdk-ts'),
      event_types: ['order.created'],
    });
    const before = receiver.received.length;
    const created = await client.createOrder(VALID_ORDER);
    await receiver.waitFor(before + 1, 20_000);
    const hook = receiver.received.find((h) => h.path === '/sdk-ts' && h.body.includes(created.trackingRef))!;
    const event = await verifyWebhook(subscribed.secret, hook.body, hook.headers);
    expect(event.type).toBe('order.created');
    // A test endpoint (subscribed with a test key) hears test orders: livemode false.
    expect(event.type === 'order.created' && event.data.order.livemode).toBe(false);

    await expect(
      verifyWebhook(subscribed.secret, hook.body.replace('order', 'Order'), hook.headers),
    ).rejects.toThrow(WebhookVerificationError);
    const later = new Date(Date.now() + 10 * 60_000);
    await expect(verifyWebhook(subscribed.secret, hook.body, hook.headers, { now: later })).rejects.toThrow(
      /too far/,
    );
    const signature = await signWebhook(subscribed.secret, 'msg_1', 1_700_000_000, '{}');
    expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('type-checks a sample app with tsc --strict and builds as ESM with declarations', async () => {
    const tsc = path.resolve(import.meta.dirname, '../node_modules/typescript/bin/tsc');
    await run(process.execPath, [tsc, '-p', SDK]);
    const out = mkdtempSync(path.join(os.tmpdir(), 'dlv-sdk-ts-'));
    try {
      await run(process.execPath, [tsc, '-p', path.join(SDK, 'tsconfig.build.json'), '--outDir', out]);
      const built = await import(pathToFileURL(path.join(out, 'index.js')).href);
      expect(typeof built.DlvClient).toBe('function');
      await expect(
        new built.DlvClient({ apiKey: brand.key, baseUrl: api.base }).ping(),
      ).resolves.toMatchObject({
        ok: true,
      });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);
});
