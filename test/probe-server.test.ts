/**
 * The worker's own HTTP server (src/runtime/probe-server.ts): what it does not serve is answered
 * as the API answers it, in the documented error envelope with the API's request ids.
 */
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyProbes } from '../src/runtime/lazy-probes.ts';
import { startProbeServer } from '../src/runtime/probe-server.ts';
import type { Readiness } from '../src/runtime/readiness.ts';
import { testConfig } from './support/app.ts';

const ready: Readiness = {
  report: async () => ({ status: 'ready', checks: { database: 'ok', migrations: 'current' } }),
  drain: () => {},
};

let probes: FastifyInstance;
let base: string;
beforeAll(async () => {
  probes = await startProbeServer(testConfig({ port: 0, host: '127.0.0.1' }), ready);
  base = `http://127.0.0.1:${(probes.server.address() as { port: number }).port}`;
});
afterAll(() => probes.close());

describe("the worker's probe server", () => {
  it("answers an unknown path with the error envelope and a request id of the API's form", async () => {
    const response = await fetch(`${base}/nothing-here?x=1`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({
      ok: false,
      error: 'not_found',
      message: 'No route GET /nothing-here.',
      request_id: expect.stringMatching(/^req_[0-9a-f]{24}$/),
    });
    expect(response.headers.get('x-request-id')).toBe(body.request_id);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('echoes a sane caller-supplied request id, as the API does', async () => {
    const response = await fetch(`${base}/nothing-here`, { headers: { 'x-request-id': 'probe-123' } });
    expect(((await response.json()) as { request_id: string }).request_id).toBe('probe-123');
  });

  it('still answers its probes', async () => {
    expect(await (await fetch(`${base}/livez`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});

describe('the lazily started probes (src/runtime/lazy-probes.ts)', () => {
  it('start once however often asked, answer on PORT, and close to free it', async () => {
    const port = await freePort();
    const lazy = lazyProbes(testConfig({ port, host: '127.0.0.1' }), ready);
    // Asked twice at once (the database kept the worker waiting, then its runner started): a
    // second server on the same port would fail with EADDRINUSE.
    await Promise.all([lazy.start(), lazy.start()]);
    await lazy.start();
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    await lazy.close();
    await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();
    await lazy.close(); // closing what is closed is nothing
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
