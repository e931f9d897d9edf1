/**
 * Slow clients (slowloris) against a real listening server: `app.inject` has no sockets, so no
 * deadline to meet. The deadlines are shortened here (the defaults are seconds, not milliseconds).
 * The cap on connections per address: test/connections-per-address.test.ts.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from './support/app.ts';

const HEADERS_MS = 300;
const REQUEST_MS = 600;
const KEEP_ALIVE_MS = 400;
/** How long a trickle goes on if nobody cuts it: well past every deadline above. */
const TRICKLE_MS = 4_000;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({
    config: {
      headersTimeoutMs: HEADERS_MS,
      requestTimeoutMs: REQUEST_MS,
      keepAliveTimeoutMs: KEEP_ALIVE_MS,
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

interface Connection {
  socket: Socket;
  received: () => string;
  /** Resolves with the milliseconds from opening to the server closing the connection. */
  closed: Promise<number>;
}

async function open(): Promise<Connection> {
  const started = performance.now();
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => resolve(performance.now() - started)),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('close', () => reject(new Error('closed before connecting')));
  });
  return { socket, received: () => received, closed };
}

/** Writes `text` a character every `everyMs` until it is all sent or the connection is closed. */
async function trickle(connection: Connection, text: string, everyMs: number): Promise<void> {
  for (const character of text) {
    if (connection.socket.destroyed || connection.socket.writableEnded) return;
    connection.socket.write(character);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Milliseconds until the server closed the connection, or null if it still held it after TRICKLE_MS. */
async function cutWithin(connection: Connection): Promise<number | null> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), TRICKLE_MS));
  const result = await Promise.race([connection.closed, timeout]);
  connection.socket.destroy();
  return result;
}

const bodyHead = (path: string, type: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`;

describe('slow clients', () => {
  for (const [route, type] of [
    ['/connectors/prestashop/orders', 'application/json'],
    ['/account/sign-in', 'application/x-www-form-urlencoded'],
  ] as const) {
    it(`cuts a body trickled to ${route} (no sign-in needed) at the request deadline`, async () => {
      const connection = await open();
      const body = 'x'.repeat(200);
      connection.socket.write(bodyHead(route, type, body.length));
      void trickle(connection, body, 20);
      const cutAfter = await cutWithin(connection);
      expect(cutAfter, 'the server still held the trickled request').not.toBeNull();
      // The deadline plus one period of Node's deadline check, and some slack for a busy machine.
      expect(cutAfter!).toBeLessThan(REQUEST_MS + 1_000);
      expect(connection.received()).toMatch(/^HTTP\/1\.1 408 |^$/);
    });
  }

  it('cuts headers trickled a byte at a time at the headers deadline', async () => {
    const connection = await open();
    void trickle(
      connection,
      `GET ${API}/ping HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'y'.repeat(200)}\r\n\r\n`,
      20,
    );
    const cutAfter = await cutWithin(connection);
    expect(cutAfter, 'the server still held the trickled headers').not.toBeNull();
    expect(cutAfter!).toBeLessThan(HEADERS_MS + 1_000);
  });

  it('closes an idle kept-alive connection after the keep-alive deadline', async () => {
    const connection = await open();
    connection.socket.write(`GET ${API}/ping HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const cutAfter = await cutWithin(connection);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(cutAfter).not.toBeNull();
    // Node keeps an idle connection 1 s past keepAliveTimeout (so a client reusing it at the last moment
    // is not cut mid-request); then some slack.
    expect(cutAfter!).toBeLessThan(KEEP_ALIVE_MS + 2_000);
  });
});
