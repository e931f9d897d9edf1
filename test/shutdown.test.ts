import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('shutdown', () => {
  it('answers a request reaching a closing server with the unavailable envelope and Connection: close', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    // Keep the connection busy so closing waits for it, then send one more request on it.
    const closing = t.app.close();
    socket.write('GET /public/v1/ping HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await closing;
    if (received === '') return expect.fail('the closing server dropped the request without an answer');
    expect(received).toMatch(/^HTTP\/1\.1 503/);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(received).toContain('"error":"unavailable"');
  });
});
