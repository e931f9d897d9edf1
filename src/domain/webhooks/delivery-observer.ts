import type { FinishedAttempt } from './delivery-attempt.ts';
import type { DeliveryAttemptResult } from './outbound.ts';
import type { DeliveryFailureReason, DeliveryObserver } from './ports.ts';

/** A finished attempt (the dispatcher's or a single `deliver`'s), told to `observer`: none if no request was made. */
export function reportFinished(
  observer: DeliveryObserver | undefined,
  eventCreatedAt: Date,
  finished: FinishedAttempt,
): void {
  if (!finished.result) return;
  reportAttempt(observer, {
    result: finished.result,
    outcome: finished.record.outcome.status,
    eventCreatedAt,
    finishedAt: finished.record.at,
  });
}

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
