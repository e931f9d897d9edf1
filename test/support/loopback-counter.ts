import { type AddressInfo, createServer } from 'node:net';

/** A loopback TCP listener that only counts connections: reaching it at all is the failure. */
export async function startLoopbackCounter() {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type LoopbackCounter = Awaited<ReturnType<typeof startLoopbackCounter>>;
