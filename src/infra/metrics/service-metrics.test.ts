import { describe, expect, it } from 'vitest';
import { createServiceMetrics } from './service-metrics.ts';

describe('createServiceMetrics', () => {
  it('still answers when a scrape-time read fails: those gauges are left out and the failure counted', async () => {
    let away = true;
    let reads = 0;
    const metrics = createServiceMetrics(
      {
        queueDepth: async () => {
          reads++;
          if (away) throw new Error('connect ECONNREFUSED');
          return [
            {
              task: 'webhooks_deliver',
              ready: 2,
              scheduled: 0,
              running: 1,
              failed: 0,
              oldestReadyAgeSeconds: 3,
            },
          ];
        },
      },
      { sourceTtlMs: 0 },
    );
    const down = (await metrics.exposition()).body;
    expect(down).toContain('dlv_metrics_source_errors_total{source="job_queue"} 1');
    expect(down).not.toMatch(/^dlv_job_queue_jobs\{/m);
    expect(down).toContain('dlv_process_cpu_user_seconds_total');
    away = false;
    const up = (await metrics.exposition()).body;
    expect(up).toContain('dlv_job_queue_jobs{task="webhooks_deliver",state="ready"} 2');
    expect(up).toContain('dlv_job_queue_oldest_ready_age_seconds{task="webhooks_deliver"} 3');
    // One read per scrape for the two gauges.
    expect(up).toContain('dlv_metrics_source_errors_total{source="job_queue"} 1');
    expect(reads).toBe(2);
  });
});
