import { Gauge, type Registry } from 'prom-client';
import { PREFIX } from './names.ts';
import type { SourceReads } from './source-reads.ts';

interface ProblemTotal {
  platform: string;
  kind: string;
  count: number;
}

/** The shops' sync problems on record, by platform and kind, read at scrape time (`totals`: cached). */
export function syncProblemMetrics(
  registry: Registry,
  totals: () => Promise<ProblemTotal[]>,
  reads: SourceReads,
): void {
  new Gauge({
    name: `${PREFIX}connector_sync_problems`,
    help: 'Shop sync problems on record (shown to the brands), by platform and kind',
    labelNames: ['platform', 'kind'] as const,
    registers: [registry],
    async collect() {
      const rows = await reads.read('connector_problems', totals);
      this.reset();
      for (const row of rows ?? []) this.labels(row.platform, row.kind).set(row.count);
    },
  });
}
