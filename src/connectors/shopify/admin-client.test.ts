import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jsonRequester } from '../../infra/http/json-request.ts';
import { outboundClient } from '../../infra/http/outbound-client.ts';
import { ShopifyRequestFailed, ShopifyRetryLater, shopifyAdminClient } from './admin-client.ts';

/**
 * The client's arithmetic of Shopify's cost throttling and its refusal of redirects, against a
 * minimal stub answering exactly what each test queues. Shopify's real answers (the code exchange,
 * 401, 429, 503, THROTTLED) are met with the fake Shopify in test/shopify-admin-client.test.ts.
 */
interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}
const queue: Answer[] = [];
const seen: { url: string; token: string | undefined; body: unknown }[] = [];
let server: http.Server;
let origin: string;

const cost = (requested: number, available: number, restoreRate = 50) => ({
  cost: {
    requestedQueryCost: requested,
    actualQueryCost: requested,
    throttleStatus: { maximumAvailable: 1000, currentlyAvailable: available, restoreRate },
  },
});
const throttled = (requested: number, available: number): Answer => ({
  body: {
    errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
    extensions: cost(requested, available),
  },
});
const ok = (available = 990): Answer => ({
  body: { data: { shop: { name: 'Acme' } }, extensions: cost(10, available) },
});

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({
        url: req.url!,
        token: req.headers['x-shopify-access-token'] as string,
        body: JSON.parse(body || '{}'),
      });
      const answer = queue.shift() ?? ok();
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  queue.length = 0;
  seen.length = 0;
});

const NOW = new Date('2026-03-02T10:00:00Z');

function client(options: { maxInlineWaitMs?: number } = {}) {
  const waits: number[] = [];
  let now = NOW.getTime();
  const c = shopifyAdminClient({
    adminOriginTemplate: `${origin}/{shop}`,
    apiKey: 'key',
    apiSecret: 'secret',
    request: jsonRequester(outboundClient({ allowInsecure: true })),
    clock: () => new Date(now),
    maxInlineWaitMs: options.maxInlineWaitMs ?? 3000,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  return { c, waits };
}

const SHOP = 'acme.myshopify.com';
const query = '{ shop { name } }';

describe('Shopify Admin GraphQL client', () => {
  it('on THROTTLED waits (requested − available) / restoreRate, then retries', async () => {
    const { c, waits } = client();
    queue.push(throttled(100, 40), ok());
    expect(await c.graphql(SHOP, 't', query)).toEqual({ shop: { name: 'Acme' } });
    expect(waits).toEqual([1200]);
    expect(seen).toHaveLength(2);
  });

  it('hands a long refill back to the caller as the time to retry', async () => {
    const { c, waits } = client({ maxInlineWaitMs: 1000 });
    queue.push(throttled(900, 0));
    const err = await c.graphql(SHOP, 't', query).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShopifyRetryLater);
    expect((err as ShopifyRetryLater).retryAt).toEqual(new Date(NOW.getTime() + 18_000));
    expect(waits).toEqual([]);
  });

  it('waits for the bucket to refill before draining it, from the last answer', async () => {
    const { c, waits } = client();
    queue.push(ok(10), ok());
    await c.graphql(SHOP, 't', query);
    await c.graphql(SHOP, 't', query);
    expect(waits).toEqual([800]); // (50 headroom − 10 left) / 50 per second
    await c.graphql('other.myshopify.com', 't', query);
    expect(waits).toEqual([800]); // buckets are per shop
  });

  it('turns no answer (nothing listening) into a retry with the queue’s backoff', async () => {
    const closed = shopifyAdminClient({
      adminOriginTemplate: 'http://127.0.0.1:9/{shop}',
      apiKey: 'k',
      apiSecret: 's',
      request: jsonRequester(outboundClient({ allowInsecure: true })),
    });
    const err = (await closed.graphql(SHOP, 't', query).catch((e: unknown) => e)) as ShopifyRetryLater;
    expect(err).toBeInstanceOf(ShopifyRetryLater);
    expect(err.retryAt).toBeNull();
  });

  it('never follows a redirect (an open redirect on a shop must not carry our token elsewhere)', async () => {
    const { c } = client();
    queue.push({ status: 302, headers: { location: 'http://169.254.169.254/' }, body: '' });
    await expect(c.graphql(SHOP, 't', query)).rejects.toBeInstanceOf(ShopifyRequestFailed);
    expect(seen).toHaveLength(1);
  });
});
