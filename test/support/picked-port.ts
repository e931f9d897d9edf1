import { freePort } from '../../src/infra/embedded-postgres.ts';

/** What `onPickedPort` starts: built for a port, then listening on it. */
export interface PortBound<T> {
  value: T;
  listen(): Promise<unknown>;
  /** Undoes what was built when the port was taken meanwhile. */
  close(): Promise<void>;
}

/**
 * Starts something that must know its own address before it listens (the service's public URLs,
 * given to a fake shop): the port is picked first, and another process can take it meanwhile — CI
 * runs the suites side by side, and a fake's own ephemeral port may land on it — so a port found
 * taken is given up and another picked, a few times.
 */
export async function onPickedPort<T>(start: (port: number) => Promise<PortBound<T>>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const bound = await start(await freePort());
    try {
      await bound.listen();
      return bound.value;
    } catch (err) {
      await bound.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= tries) throw err;
    }
  }
}
