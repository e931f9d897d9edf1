import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEventBody } from '../../domain/webhooks/events.ts';
import { generateWebhookSecret } from '../../domain/webhooks/secrets.ts';
import { signPayload } from '../../domain/webhooks/signing.ts';
import { outboundClient } from './outbound-client.ts';
import { type SendWebhookInput, sendWebhook as sendThrough } from './outbound-http.ts';
import type { ResolveHost } from './url-guard.ts';

/** One attempt through a client of the given policy (deps.ts keeps one per policy). */
const sendWebhook = ({
  allowInsecure,
  lookup,
  ...input
}: SendWebhookInput & { allowInsecure: boolean; lookup?: ResolveHost }) =>
  sendThrough(outboundClient({ allowInsecure, lookup }), input);

interface Received {
  method: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real receiver on loopback; the path picks its behaviour. */
let server: Server;
let base: string;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      switch (req.url) {
        case '/ok':
          res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
          return;
        case '/no-content':
          res.writeHead(204).end();
          return;
        case '/error':
          res.writeHead(500, { 'content-type': 'text/plain' }).end('database is down');
          return;
        case '/gone':
          res.writeHead(410).end('endpoint removed');
          return;
        case '/busy':
          res.writeHead(429, { 'retry-after': '120' }).end();
          return;
        case '/redirect':
          res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
          return;
        case '/big':
          // 2000 × "é" (2 bytes each): the excerpt stops at 1 KiB without a broken character.
          res.writeHead(500).end('é'.repeat(2000));
          return;
        case '/slow':
          setTimeout(() => res.writeHead(200).end('too late'), 2000).unref();
          return;
        case '/slow-body':
          res.writeHead(200);
          res.write('partial');
          setTimeout(() => res.end(), 2000).unref();
          return;
        default:
          res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const secret = generateWebhookSecret();
const body = buildEventBody({
  type: 'order.created',
  id: 'msg_0123456789abcdef',
  createdAt: new Date(),
  data: { order: { trackingRef: 'DLV-7K3M9Q2XHP' } },
});
const send = (path: string, extra: { timeoutMs?: number } = {}) =>
  sendWebhook({
    url: `${base}${path}`,
    headers: signPayload({ msgId: 'msg_0123456789abcdef', timestamp: new Date(), body, secrets: [secret] }),
    body,
    allowInsecure: true,
    ...extra,
  });

describe('sendWebhook', () => {
  it('succeeds on 200 and delivers a body the receiver can verify', async () => {
    const before = received.length;
    const result = await send('/ok');
    expect(result).toMatchObject({
      ok: true,
      status: 200,
      responseExcerpt: 'thanks',
      error: null,
      retryAfter: null,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);

    const request = received[before]!;
    expect(request.method).toBe('POST');
    expect(request.body).toBe(body);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('dlv-webhooks/1.0');
    expect(request.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    expect(new Webhook(secret).verify(request.body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateWebhookSecret()).verify(request.body, headers)).toThrow();
  });

  it('counts any 2xx as success', async () => {
    expect(await send('/no-content')).toMatchObject({ ok: true, status: 204, responseExcerpt: '' });
  });

  it('reports a 500 with the response excerpt', async () => {
    expect(await send('/error')).toMatchObject({
      ok: false,
      status: 500,
      responseExcerpt: 'database is down',
      error: 'HTTP 500',
    });
  });

  it('reports 410 Gone', async () => {
    expect(await send('/gone')).toMatchObject({
      ok: false,
      status: 410,
      responseExcerpt: 'endpoint removed',
    });
  });

  it('captures Retry-After on 429', async () => {
    expect(await send('/busy')).toMatchObject({ ok: false, status: 429, retryAfter: '120' });
  });

  it('does not follow redirects', async () => {
    const before = received.length;
    const result = await send('/redirect');
    expect(result).toMatchObject({ ok: false, status: 302, error: 'HTTP 302: redirects are not followed' });
    expect(received.length).toBe(before + 1);
  });

  it('keeps only the first 1 KiB of the response, as whole UTF-8 characters', async () => {
    const result = await send('/big');
    expect(result.responseExcerpt).toBe('é'.repeat(512));
  });

  it('times out a slow receiver', async () => {
    const result = await send('/slow', { timeoutMs: 200 });
    expect(result).toMatchObject({
      ok: false,
      status: null,
      error: 'timeout after 200 ms',
      responseExcerpt: '',
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(result.durationMs).toBeLessThan(1500);
  });

  it('keeps a 2xx whose body is slow, with the part received', async () => {
    const result = await send('/slow-body', { timeoutMs: 300 });
    expect(result).toMatchObject({ ok: true, status: 200, responseExcerpt: 'partial', error: null });
  });

  it('reports a refused connection without throwing', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sendWebhook({
      url: `http://127.0.0.1:${closedPort}/`,
      headers: {},
      body,
      allowInsecure: true,
    });
    expect(result).toMatchObject({ ok: false, status: null, responseExcerpt: '', retryAfter: null });
    expect(result.error).toContain('ECONNREFUSED');
    // The stored error reaches the brand: what its host resolved to is not said (issue #23).
    expect(result.error).toBe('connect ECONNREFUSED');
  });

  it('connects to the vetted address, not a second resolution', async () => {
    const before = received.length;
    const result = await sendWebhook({
      url: `http://hooks.example.test:${port}/ok`,
      headers: {},
      body,
      allowInsecure: true,
      lookup: async () => ['127.0.0.1'],
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(received[before]?.headers.host).toBe(`hooks.example.test:${port}`);
  });

  it('hands every vetted address to the connection, so IPv4 is tried when ::1 refuses', async () => {
    const result = await sendWebhook({
      url: `http://localhost:${port}/ok`,
      headers: {},
      body,
      allowInsecure: true,
      lookup: async () => ['::1', '127.0.0.1'],
    });
    expect(result).toMatchObject({ ok: true, status: 200 });
  });

  it('refuses an internal destination before connecting', async () => {
    let asked = 0;
    const result = await sendWebhook({
      url: 'https://hooks.example.test/',
      headers: {},
      body,
      allowInsecure: false,
      lookup: async () => {
        asked += 1;
        return ['10.0.0.1'];
      },
    });
    expect(asked).toBe(1);
    expect(result).toMatchObject({ ok: false, status: null });
    expect(result.error).toBe(
      'url: hooks.example.test is not an allowed address; webhooks are only delivered to public addresses',
    );
  });

  it('refuses loopback and plain http without allowInsecure', async () => {
    const loopback = await sendWebhook({
      url: `https://127.0.0.1:${port}/ok`,
      headers: {},
      body,
      allowInsecure: false,
    });
    expect(loopback.error).toBe(
      'url: 127.0.0.1 is not an allowed address; webhooks are only delivered to public addresses',
    );
    const plain = await sendWebhook({ url: `${base}/ok`, headers: {}, body, allowInsecure: false });
    expect(plain.error).toBe('url: must use https');
  });

  it('times out a resolver that never answers', async () => {
    const result = await sendWebhook({
      url: 'https://hooks.example.test/',
      headers: {},
      body,
      allowInsecure: false,
      timeoutMs: 100,
      lookup: () => new Promise(() => {}),
    });
    expect(result).toMatchObject({ ok: false, status: null, error: 'timeout after 100 ms' });
  });
});
