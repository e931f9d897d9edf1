/**
 * The cap on connections per client address (MAX_CONNECTIONS_PER_ADDRESS), against a real
 * listening server: an integration's burst from one Node client (its default `fetch`, which opens
 * one connection per request in flight) is served; past the cap the client gets an HTTP answer it
 * can act on (429, Retry-After), never a reset.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { API, buildTestApp, createBrandWithKey, type TestApp } from './support/app.ts';
import { VALID_ORDER } from './support/orders.ts';

/** Listens on loopback; counts the connections the server accepts. */
async function listening(t: TestApp): Promise<{ base: string; accepted: () => number }> {
  let accepted = 0;
  t.app.server.on('connection', () => {
    accepted++;
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, accepted: () => accepted };
}

describe('the default cap', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it('serves 150 concurrent order creations from one client (one connection each), answering every one', async () => {
    // The deployment's default (testConfig leaves it), not a test's.
    t = await buildTestApp();
    expect(t.deps.config.maxConnectionsPerAddress).toBe(loadConfig({}).maxConnectionsPerAddress);
    const { base, accepted } = await listening(t);
    const brand = await createBrandWithKey(t.deps);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 150 }, () =>
        fetch(`${base}${API}/orders`, {
          method: 'POST',
          headers: { ...brand.headers, 'content-type': 'application/json' },
          body: JSON.stringify(VALID_ORDER),
        }).then(async (response) => ({ status: response.status, body: await response.json() })),
      ),
    );
    const failed = outcomes.filter((o) => o.status === 'rejected');
    expect(failed.map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
    const statuses = outcomes.map((o) => (o as PromiseFulfilledResult<{ status: number }>).value.status);
    expect(statuses).toEqual(Array(150).fill(200));
    // The client did hold more connections at once than the old cap (100) let through.
    expect(accepted()).toBeGreaterThan(100);
    const { rows } = await t.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM orders WHERE brand_id = $1',
      [brand.brandId],
    );
    expect(rows[0]!.n).toBe(150);
    // A client's pool of up to 200 connections fits under it.
    expect(t.deps.config.maxConnectionsPerAddress).toBeGreaterThanOrEqual(200);
  }, 120_000);
});

describe('past the cap', () => {
  const CAP = 20;
  // A server for each test: the connections one keeps alive count against the next one's cap.
  const apps: TestApp[] = [];
  const serverWithCap = async () => {
    const t = await buildTestApp({ config: { maxConnectionsPerAddress: CAP } });
    apps.push(t);
    return { t, ...(await listening(t)) };
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('answers the requests on connections past the cap with 429 and Retry-After, which a client acts on', async () => {
    const { t, base, accepted } = await serverWithCap();
    const brand = await createBrandWithKey(t.deps);
    const ask = () =>
      fetch(`${base}${API}/me`, { headers: brand.headers }).then(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        connection: response.headers.get('connection'),
        body: (await response.json()) as Record<string, unknown>,
      }));
    const first = await Promise.allSettled(Array.from({ length: 35 }, ask));
    // Every request got an HTTP answer: no `fetch failed`.
    expect(first.filter((o) => o.status === 'rejected')).toEqual([]);
    const answers = first.map((o) => (o as PromiseFulfilledResult<Awaited<ReturnType<typeof ask>>>).value);
    expect(accepted()).toBeGreaterThan(CAP);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 200)).toBe(true);
    for (const answer of refused) {
      expect(answer.retryAfter).toBe('1');
      expect(answer.connection).toBe('close');
      expect(answer.body).toMatchObject({
        ok: false,
        error: 'rate_limited',
        message: expect.stringContaining(`at most ${CAP}`),
        request_id: expect.stringMatching(/^req_/),
      });
    }
    // Acting on it: after Retry-After, the client's own pool (the connections it kept) serves them.
    let pending = refused.length;
    for (let round = 0; round < 5 && pending > 0; round++) {
      await new Promise((resolve) => setTimeout(resolve, Number(refused[0]!.retryAfter) * 1000));
      const again = await Promise.all(Array.from({ length: pending }, ask));
      pending = again.filter((a) => a.status === 429).length;
      expect(again.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    }
    expect(pending).toBe(0);
  }, 60_000);

  it('answers a raw connection past the cap before any routing, then closes it; one past twice the cap is closed at once', async () => {
    const { base } = await serverWithCap();
    const { port } = new URL(base);
    const open = async () => {
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      socket.on('error', () => {});
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('close', () => reject(new Error('closed before connecting')));
      });
      return { socket, received: () => received, closed };
    };
    const held: { socket: Socket }[] = [];
    try {
      for (let i = 0; i < CAP; i++) held.push(await open());
      const extra = await open();
      // No key, an unknown route: the cap answers first, whatever the request.
      extra.socket.write(
        `POST ${API}/nowhere HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      );
      await extra.closed;
      const [head, body] = extra.received().split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 429 /);
      expect(head).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(head).toMatch(/\r\nconnection: close\r\n/i);
      expect(head).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
      expect(JSON.parse(body!)).toMatchObject({ ok: false, error: 'rate_limited' });
      for (const connection of held) expect(connection.socket.destroyed).toBe(false);

      // As many again waiting for their answer: the next one is a flood, closed without a word.
      for (let i = 0; i < CAP; i++) held.push(await open());
      const flood = await open().catch(() => null);
      if (flood) {
        await flood.closed;
        expect(flood.received()).toBe('');
      }
    } finally {
      for (const connection of held) connection.socket.destroy();
    }
  });
});

describe('behind a proxy', () => {
  it("exempts TRUST_PROXY's proxies from the cap: every client's connection comes from them", async () => {
    const proxied = await buildTestApp({
      config: { maxConnectionsPerAddress: 1, trustProxy: ['127.0.0.1'] },
    });
    try {
      const { base } = await listening(proxied);
      const statuses = await Promise.all(
        [1, 2, 3].map(() => fetch(`${base}${API}/ping`).then((res) => res.status)),
      );
      expect(statuses).toEqual([200, 200, 200]);
    } finally {
      await proxied.close();
    }
  });
});
