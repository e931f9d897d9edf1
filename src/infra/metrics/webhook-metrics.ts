import { Counter, Histogram, type Registry } from 'prom-client';
import type { DeliveryFailureReason, DeliveryObserver } from '../../domain/webhooks/ports.ts';
import { PREFIX } from './names.ts';

/** Seconds from the event to its delivery: well under a second when all is well, days when retried. */
const LAG_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 6 * 3600, 24 * 3600];

/** Webhook delivery attempts (the domain's DeliveryObserver): outcomes, failure reasons, lag. */
export function webhookMetrics(registry: Registry): DeliveryObserver {
  const attempts = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: 'Webhook delivery attempts, by outcome (delivered; retrying: failed, another attempt follows; given_up)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: `${PREFIX}webhook_delivery_failures_total`,
    help: 'Failed webhook delivery attempts, by reason (timeout, network, http_4xx, http_5xx, http_other)',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const lag = new Histogram({
    name: `${PREFIX}webhook_delivery_lag_seconds`,
    help: 'From the event’s creation to its delivery (retries included)',
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  const delivered = attempts.labels('delivered');
  return {
    delivered(lagMs: number): void {
      delivered.inc();
      lag.observe(Math.max(0, lagMs) / 1000);
    },
    failed(reason: DeliveryFailureReason, final: boolean): void {
      attempts.labels(final ? 'given_up' : 'retrying').inc();
      failures.labels(reason).inc();
    },
  };
}
