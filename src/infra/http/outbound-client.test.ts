import { createServer as createHttpServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackCounter, startLoopbackCounter } from '../../../test/support/loopback-counter.ts';
import { DestinationRefused, outboundClient, undiciAgentClass } from './outbound-client.ts';

let loopback: LoopbackCounter;
beforeAll(async () => {
  loopback = await startLoopbackCounter();
});
afterAll(() => loopback.close());

/** Public at the first question, loopback at every later one: a rebinding DNS server. */
function rebinding() {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    return asked.length === 1 ? ['93.184.216.34'] : ['127.0.0.1'];
  };
  return { asked, lookup };
}

const attempt = (client: ReturnType<typeof outboundClient>, url: string) =>
  client
    .request(new URL(url), { method: 'GET', headers: {}, signal: AbortSignal.timeout(500) })
    .then((response) => {
      response.destroy();
      return response;
    });

describe('outboundClient', () => {
  it("takes undici's Agent from its own module: the class the package exports (an upgrade that moves it fails here)", () => {
    const undici = createRequire(import.meta.url)('undici') as typeof import('undici');
    expect(undiciAgentClass()).toBe(undici.Agent);
  });

  it('connects to the address its guard checked: a DNS answer changed since never reaches loopback', async () => {
    const before = loopback.connections;
    const { asked, lookup } = rebinding();
    // Production's policy: no insecure allowance.
    const client = outboundClient({ allowInsecure: false, lookup });
    await expect(attempt(client, `https://rebind.example.test:${loopback.port}/`)).rejects.toThrow();
    expect(loopback.connections).toBe(before);
    // One resolution, the checked one, is what the socket connects with.
    expect(asked).toEqual(['rebind.example.test']);
  });

  it('refuses a host resolving to loopback before any connection, saying only that', async () => {
    const before = loopback.connections;
    const client = outboundClient({ allowInsecure: false, lookup: async () => ['127.0.0.1'] });
    const err = await attempt(client, `https://internal.example.test:${loopback.port}/`).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DestinationRefused);
    expect((err as Error).message).toBe(
      'url: internal.example.test is not an allowed address; webhooks are only delivered to public addresses',
    );
    expect(loopback.connections).toBe(before);
  });

  it('refuses internal IP literals (which a socket connects to without a lookup) and plain http', async () => {
    const before = loopback.connections;
    const client = outboundClient({ allowInsecure: false });
    for (const url of [
      `https://127.0.0.1:${loopback.port}/`,
      `https://[::ffff:127.0.0.1]:${loopback.port}/`,
    ]) {
      await expect(attempt(client, url)).rejects.toBeInstanceOf(DestinationRefused);
    }
    await expect(attempt(client, 'http://93.184.216.34/')).rejects.toThrow('url: must use https');
    expect(loopback.connections).toBe(before);
  });

  it('keeps the connection to a host alive between calls, resolving it once', async () => {
    const peers = new Set<string>();
    const server = createHttpServer((req, res) => {
      peers.add(`${req.socket.remotePort}`);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port: httpPort } = server.address() as AddressInfo;
    let asked = 0;
    const client = outboundClient({
      allowInsecure: true,
      lookup: async () => {
        asked += 1;
        return ['127.0.0.1'];
      },
    });
    for (let i = 0; i < 3; i++) {
      const response = await client.request(new URL(`http://shop.example.test:${httpPort}/`), {
        method: 'GET',
        headers: {},
        signal: AbortSignal.timeout(2000),
      });
      response.resume();
      await new Promise((resolve) => response.on('end', resolve));
    }
    await new Promise((resolve) => server.close(resolve));
    expect(peers.size).toBe(1);
    expect(asked).toBe(1);
  });
});
