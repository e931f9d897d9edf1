import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { onPickedPort } from './support/picked-port.ts';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function listenOn(server: Server, port: number): Promise<void> {
  servers.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

describe('onPickedPort (test support)', () => {
  it('picks another port when the one picked was taken before it listened, closing what it had built', async () => {
    const squatter = createServer();
    await listenOn(squatter, 0);
    const taken = (squatter.address() as { port: number }).port;
    const ports: number[] = [];
    let closed = 0;
    const server = await onPickedPort(async (port) => {
      const use = ports.length === 0 ? taken : port; // the first pick "lost the race"
      ports.push(use);
      const built = createServer();
      return { value: built, listen: () => listenOn(built, use), close: async () => void closed++ };
    });
    expect(ports).toHaveLength(2);
    expect(closed).toBe(1);
    expect((server.address() as { port: number }).port).toBe(ports[1]);
    expect(ports[1]).not.toBe(taken);
  });

  it('gives up after its tries, and passes any other failure on at once', async () => {
    const squatter = createServer();
    await listenOn(squatter, 0);
    const taken = (squatter.address() as { port: number }).port;
    let starts = 0;
    await expect(
      onPickedPort(async () => {
        starts++;
        const built = createServer();
        return { value: built, listen: () => listenOn(built, taken), close: async () => {} };
      }, 2),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(starts).toBe(2);

    starts = 0;
    await expect(
      onPickedPort(async () => {
        starts++;
        return { value: null, listen: () => Promise.reject(new Error('boom')), close: async () => {} };
      }),
    ).rejects.toThrow('boom');
    expect(starts).toBe(1);
  });
});
