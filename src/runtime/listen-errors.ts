import type { FastifyInstance } from 'fastify';

/** A port this process could not listen on, said as a sentence: printed without a stack (src/service.ts). */
export class ListenError extends Error {}

interface Where {
  port: number;
  host: string;
  /** The setting that chose the port: the one to change. */
  setting: 'PORT' | 'METRICS_PORT';
}

/**
 * The sentence for a failed `listen`, or null when the failure is not about the address: a port
 * another process holds (EADDRINUSE), one reserved to root (EACCES), an address that is not this
 * machine's (EADDRNOTAVAIL).
 */
export function explainListenError(err: unknown, where: Where): ListenError | null {
  const { port, host, setting } = where;
  switch ((err as NodeJS.ErrnoException | null)?.code) {
    case 'EADDRINUSE':
      return new ListenError(
        `port ${port} (${setting}) is already in use on ${host}: another process listens there. ` +
          `Stop it, or choose another port with ${setting}=<port>${setting === 'PORT' ? ' (PORT=0 lets the system pick a free one)' : ''}.`,
      );
    case 'EACCES':
      return new ListenError(
        `port ${port} (${setting}) on ${host} is not allowed to this user (ports below 1024 need privileges): ` +
          `choose a port from 1024 up with ${setting}=<port>.`,
      );
    case 'EADDRNOTAVAIL':
      return new ListenError(
        `HOST=${host} is not an address of this machine, so port ${port} cannot be opened there: ` +
          'set HOST to one of its addresses (0.0.0.0 listens on all of them).',
      );
    default:
      return null;
  }
}

/** `app.listen`, a failure about the address turned into its sentence. */
export async function listenOrExplain(
  app: FastifyInstance,
  options: { port: number; host: string },
  setting: Where['setting'],
): Promise<void> {
  try {
    await app.listen(options);
  } catch (err) {
    throw explainListenError(err, { ...options, setting }) ?? err;
  }
}
