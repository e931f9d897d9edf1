import { collectDefaultMetrics, Registry } from 'prom-client';
import type { TaskDepth } from '../queue/job-queue.ts';
import { syncProblemMetrics } from './connector-metrics.ts';
import { httpMetrics } from './http-metrics.ts';
import { jobRunMetrics, queueDepthMetrics } from './job-metrics.ts';
import { PREFIX } from './names.ts';
import { placesMetrics } from './places-metrics.ts';
import { poolMetrics } from './pool-metrics.ts';
import { routingMetrics } from './routing-metrics.ts';
import { scanMetrics } from './scan-metrics.ts';
import { scrapeCache } from './scrape-cache.ts';
import { sourceReads } from './source-reads.ts';
import { webhookMetrics } from './webhook-metrics.ts';

/** Scrape-time reads of the database are shared for this long (every instance is scraped, often). */
const SOURCE_TTL_MS = 5_000;

/** What the metrics read from the database at scrape time (absent: those metrics are left out). */
export interface MetricsSources {
  /** The job queue's backlog per task (src/infra/queue). */
  queueDepth?: () => Promise<TaskDepth[]>;
  /** The shops' sync problems per platform and kind. */
  syncProblems?: () => Promise<Array<{ platform: string; kind: string; count: number }>>;
}

/** What `/metrics` answers: the Prometheus text exposition. */
export interface MetricsExposition {
  contentType: string;
  body: string;
}

/**
 * The process's one registry: every metric named `dlv_…`, the default process metrics (CPU, memory,
 * event loop lag, GC) included. Each area's instruments live in a file of their own
 * (`<area>-metrics.ts`: a function taking the registry and returning the observer the area's
 * domain port declares, like webhook-metrics.ts for DeliveryObserver); this composes them. A new
 * area (labels printed, scans…) adds its file, one line here and one member below, and its
 * section in docs/operator-guide.md. Labels are bounded sets (routes, tasks, platforms,
 * reasons): never a brand, a tracking reference or a URL.
 */
export function createServiceMetrics(sources: MetricsSources = {}, options: { sourceTtlMs?: number } = {}) {
  const ttlMs = options.sourceTtlMs ?? SOURCE_TTL_MS;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  // Registered before the scrape-time reads: the pool is read as it was, not with those reads queued.
  const pools = poolMetrics(registry);
  const reads = sourceReads();
  if (sources.queueDepth) {
    queueDepthMetrics(registry, scrapeCache(sources.queueDepth, ttlMs), reads);
  }
  if (sources.syncProblems) {
    syncProblemMetrics(registry, scrapeCache(sources.syncProblems, ttlMs), reads);
  }
  reads.registerLast(registry);
  return {
    registry,
    http: httpMetrics(registry),
    jobs: jobRunMetrics(registry),
    webhookDeliveries: webhookMetrics(registry),
    scans: scanMetrics(registry),
    places: placesMetrics(registry),
    routing: routingMetrics(registry),
    /** Watches a PostgreSQL pool of the process under `name` (`api`, `worker`). */
    observePool: pools.observe,
    /** The exposition, for `/metrics` wherever it is served (API port, metrics port, worker's health server). */
    async exposition(): Promise<MetricsExposition> {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export type ServiceMetrics = ReturnType<typeof createServiceMetrics>;
