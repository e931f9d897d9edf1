import { Counter, type Registry } from 'prom-client';
import { PREFIX } from './names.ts';

/**
 * The scrape-time reads of the database (queue backlog, sync problems): a failed one (the database
 * away) leaves its gauges out of the scrape and is counted, in the same scrape.
 */
export function sourceReads() {
  const pending = new Set<Promise<unknown>>();
  const errors = new Counter({
    name: `${PREFIX}metrics_source_errors_total`,
    help: 'Scrape-time reads that failed, by source (job_queue, connector_problems); their gauges are then left out',
    labelNames: ['source'] as const,
    registers: [],
    // Read after the reads of the same scrape have settled (see `registerLast`).
    async collect() {
      await Promise.allSettled([...pending]);
    },
  });
  return {
    /** `read()`, or null when it failed (counted under `source`). */
    read<T>(source: string, read: () => Promise<T>): Promise<T | null> {
      const settled = read().catch(() => {
        errors.labels(source).inc();
        return null;
      });
      pending.add(settled);
      void settled.finally(() => pending.delete(settled));
      return settled;
    },
    /** Registered after the gauges that read: their reads of a scrape have started when it collects. */
    registerLast(registry: Registry): void {
      registry.registerMetric(errors);
    },
  };
}

export type SourceReads = ReturnType<typeof sourceReads>;
