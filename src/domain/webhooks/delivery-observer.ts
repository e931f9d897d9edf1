import type { DeliveryAttemptResult } from './outbound.ts';
import type { DeliveryFailureReason, DeliveryObserver } from './ports.ts';

/** One attempt's outcome, told to `observer` (if any) in the observer's terms. */
export function reportAttempt(
  observer: DeliveryObserver | undefined,
  attempt: {
    result: Pick<DeliveryAttemptResult, 'ok' | 'status' | 'error'>;
    outcome: 'succeeded' | 'failed' | 'exhausted';
    eventCreatedAt: Date;
    finishedAt: Date;
  },
): void {
  if (!observer) return;
  const { result, outcome } = attempt;
  if (result.ok) observer.delivered(attempt.finishedAt.getTime() - attempt.eventCreatedAt.getTime());
  else observer.failed(failureReason(result), outcome === 'exhausted');
}

function failureReason(result: Pick<DeliveryAttemptResult, 'status' | 'error'>): DeliveryFailureReason {
  if (result.status === null)
    return /time[sd]? ?out|ETIMEDOUT/i.test(result.error ?? '') ? 'timeout' : 'network';
  if (result.status >= 500) return 'http_5xx';
  if (result.status >= 400) return 'http_4xx';
  return 'http_other';
}
