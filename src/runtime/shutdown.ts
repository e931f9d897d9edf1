import type { Readiness } from './readiness.ts';

export interface ShutdownOptions {
  readiness: Readiness;
  /** SIGTERM: how long the server keeps serving with /readyz failing (SHUTDOWN_DRAIN_MS). */
  drainMs: number;
  log: { info(fields: object, message: string): void; error(fields: object, message: string): void };
  /** Closes what the process runs, in order (HTTP server, worker, pool); in-flight work finishes. */
  close(): Promise<void>;
  /** Past the drain, the longest the close may take before the process exits anyway. */
  closeDeadlineMs?: number;
}

/**
 * SIGTERM (an orchestrator or load balancer taking the instance out): readiness fails at once, the
 * server keeps answering for `drainMs` while the balancer notices, then closes gracefully. SIGINT
 * (Ctrl-C in a terminal) skips the drain. A second signal, or the deadline, forces the exit.
 * Returns whether shutdown has begun (for a process still starting).
 */
export function handleShutdown(options: ShutdownOptions): { started(): boolean } {
  let started = false;
  const begin = (signal: NodeJS.Signals) => {
    if (started) {
      options.log.error({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    started = true;
    options.readiness.drain();
    const drainMs = signal === 'SIGTERM' ? options.drainMs : 0;
    options.log.info({ signal, drainMs }, 'shutting down: /readyz fails from now, then the server drains');
    // A stuck connection must not keep the process (or its embedded postgres) alive for ever.
    setTimeout(
      () => {
        options.log.error({ signal }, 'shutdown deadline passed: exiting');
        process.exit(1);
      },
      drainMs + (options.closeDeadlineMs ?? 9_000),
    ).unref();
    setTimeout(() => {
      options.close().then(
        () => process.exit(0),
        (err: unknown) => {
          options.log.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    }, drainMs);
  };
  process.on('SIGTERM', () => begin('SIGTERM'));
  process.on('SIGINT', () => begin('SIGINT'));
  return { started: () => started };
}
