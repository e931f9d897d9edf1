import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Readiness } from './readiness.ts';

/** The probe server of a process that may never need it, or needs it only for a while. */
export interface LazyProbes {
  /** Starts it once (later calls wait for the same start): loading Fastify costs ~0.3 s. */
  start(): Promise<void>;
  /** Closes it if it was started; a later start() starts it again. */
  close(): Promise<void>;
}

/**
 * The worker starts its probes after its runner (or while the database keeps it waiting), the API
 * only while it waits: both through this, so a second start never opens a second server on PORT.
 */
export function lazyProbes(
  config: Config,
  readiness: Readiness,
  metrics?: (request: IncomingMessage, response: ServerResponse) => boolean,
): LazyProbes {
  let started: Promise<FastifyInstance> | undefined;
  return {
    start() {
      started ??= import('./probe-server.ts').then(({ startProbeServer }) =>
        startProbeServer(config, readiness, metrics),
      );
      return started.then(() => undefined);
    },
    async close() {
      const server = started;
      started = undefined;
      if (server) await (await server).close();
    },
  };
}
