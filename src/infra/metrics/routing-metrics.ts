import { Counter, type Registry } from 'prom-client';
import type { RoutingObserver } from '../../domain/routing/ports.ts';
import { PREFIX } from './names.ts';

/**
 * The reasons the VROOM adapter gives (infra/routing/vroom-optimiser.ts): a short list, and an HTTP
 * status with vroom-express's `code` (0–4). Anything else is counted as `other`, so a label never
 * grows without bound.
 */
const KNOWN_REASON =
  /^(timeout|unreachable|malformed answer|fixed steps not kept|routes not feasible|HTTP [1-5]\d\d( code [0-4])?)$/;

/** Round planning (the domain's RoutingObserver): each fallback from VROOM to the in-process solver. */
export function routingMetrics(registry: Registry): RoutingObserver {
  const fallbacks = new Counter({
    name: `${PREFIX}round_optimiser_fallbacks_total`,
    help: 'Days planned by the in-process solver because the round optimiser (VROOM) gave no usable answer, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  return {
    optimiserFallback: (reason) => fallbacks.labels(KNOWN_REASON.test(reason) ? reason : 'other').inc(),
  };
}
