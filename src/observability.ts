import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from './config.ts';
import type { Pool } from './db/pool.ts';
import { connectorSyncRepository } from './db/repositories/connector-sync-repository.ts';
import { generateRequestId } from './http/shared/plugins/request-id.ts';
import type { MetricsServer } from './infra/metrics/metrics-server.ts';
import type { ServiceMetrics } from './infra/metrics/service-metrics.ts';
import { jobQueueOn } from './infra/queue/job-queue.ts';
import { explainListenError } from './runtime/listen-errors.ts';

/** The metrics of one process, wired: what createDeps, buildApp and startWorker take of them. */
export interface Observability {
  metrics: ServiceMetrics;
  /** createDeps' `observers`. */
  observers: {
    webhookDeliveries: ServiceMetrics['webhookDeliveries'];
    scans: ServiceMetrics['scans'];
    places: ServiceMetrics['places'];
    routing: ServiceMetrics['routing'];
  };
  /** startWorker's `jobObserver`. */
  jobObserver: ServiceMetrics['jobs'];
  /** buildApp's `metrics`: requests counted; `/metrics` on PORT when METRICS_TOKEN is set. */
  http: { sink: ServiceMetrics; token: string | null };
  /** The exposition, for a health server of its own (the worker's) to answer `/metrics` with. */
  exposition: ServiceMetrics['exposition'];
  /**
   * For a bare node:http server on PORT (the worker's health server): answers `/metrics` (behind
   * METRICS_TOKEN; a 404 is the caller's when the token is unset) and returns true, else false.
   */
  handleMetricsRequest: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** The METRICS_PORT server, when set. */
  server: MetricsServer | null;
  close(): Promise<void>;
}

/**
 * The process's metrics when they are served (METRICS_PORT and/or METRICS_TOKEN), else null: then
 * nothing is counted and prom-client is not even loaded. `pools`: the PostgreSQL pools of the
 * process by name (`{ api: pool }`, `{ worker: pool }`); the first one also serves the scrape-time
 * reads (queue backlog, sync problems), cached a few seconds.
 */
export async function startObservability(
  config: Config,
  pools: Readonly<Record<string, Pool>>,
  /** `sourceTtlMs`: how long a scrape-time read is shared (5 s; tests want every scrape fresh). */
  options: { sourceTtlMs?: number } = {},
): Promise<Observability | null> {
  if (config.metricsPort === null && config.metricsToken === null) return null;
  const [{ createServiceMetrics }, { metricsRequestHandler, startMetricsServer }] = await Promise.all([
    import('./infra/metrics/service-metrics.ts'),
    import('./infra/metrics/metrics-server.ts'),
  ]);
  const reader = Object.values(pools)[0];
  const metrics = createServiceMetrics(
    reader
      ? {
          queueDepth: () => jobQueueOn(reader).depthByTask(),
          syncProblems: () => connectorSyncRepository(reader).problemTotals(),
        }
      : {},
    options,
  );
  for (const [name, pool] of Object.entries(pools)) metrics.observePool(pool, name);
  const server =
    config.metricsPort === null
      ? null
      : await startMetricsServer(metrics.exposition, {
          port: config.metricsPort,
          host: config.host,
          requestIdOf: generateRequestId,
        }).catch((err: unknown) => {
          const where = { port: config.metricsPort!, host: config.host, setting: 'METRICS_PORT' as const };
          throw explainListenError(err, where) ?? err;
        });
  return {
    metrics,
    observers: {
      webhookDeliveries: metrics.webhookDeliveries,
      scans: metrics.scans,
      places: metrics.places,
      routing: metrics.routing,
    },
    jobObserver: metrics.jobs,
    http: { sink: metrics, token: config.metricsToken },
    exposition: metrics.exposition,
    // Without METRICS_TOKEN, /metrics is not served on PORT.
    handleMetricsRequest:
      config.metricsToken === null
        ? () => false
        : metricsRequestHandler(metrics.exposition, config.metricsToken, generateRequestId),
    server,
    close: async () => {
      await server?.close();
    },
  };
}
