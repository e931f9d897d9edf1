import { Counter, type Registry } from 'prom-client';
import type { ScanObserver } from '../../domain/scans/ports.ts';
import { PREFIX } from './names.ts';

/** Couriers' scans (the domain's ScanObserver): applied or refused, by context. A replay is not counted again. */
export function scanMetrics(registry: Registry): ScanObserver {
  const scans = new Counter({
    name: `${PREFIX}scans_total`,
    help: "Couriers' scans, by context (pickup, hub, loading, door) and result (applied, refused)",
    labelNames: ['context', 'result'] as const,
    registers: [registry],
  });
  return {
    scanned(context, result) {
      scans.labels(context, result).inc();
    },
  };
}
