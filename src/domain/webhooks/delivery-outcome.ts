import type { DeliveryAttemptResult } from './outbound.ts';
import { nextAttemptDelay, shouldDisableEndpoint } from './retry-schedule.ts';

export type DeliveryOutcome =
  | { status: 'succeeded'; nextAttemptAt: null; disableReason: null }
  | { status: 'failed'; nextAttemptAt: Date; disableReason: null }
  | { status: 'exhausted'; nextAttemptAt: null; disableReason: string | null };

export interface OutcomeInput {
  /** The number of the attempt just made (1 for the first). */
  attempt: number;
  result: Pick<DeliveryAttemptResult, 'ok' | 'status' | 'retryAfter'>;
  /** When the attempt finished. */
  now: Date;
  /** The endpoint's current run of failures, before this attempt; null if its last attempt succeeded. */
  firstFailureAt: Date | null;
  random?: () => number;
}

/**
 * What follows an attempt (SPEC §8): success ends the delivery; a failure schedules the next
 * attempt, unless the schedule is over or the endpoint must be disabled (410 Gone, or failing
 * for 5 days), in which case the delivery is exhausted.
 */
export function deliveryOutcome(input: OutcomeInput): DeliveryOutcome {
  const { result, now } = input;
  if (result.ok) return { status: 'succeeded', nextAttemptAt: null, disableReason: null };
  const firstFailureAt = input.firstFailureAt ?? now;
  if (shouldDisableEndpoint({ firstFailureAt, now, lastStatus: result.status })) {
    const disableReason =
      result.status === 410
        ? 'the receiver answered 410 Gone'
        : `failing since ${firstFailureAt.toISOString()} (5 days)`;
    return { status: 'exhausted', nextAttemptAt: null, disableReason };
  }
  const delay = nextAttemptDelay({
    attempt: input.attempt,
    retryAfterHeader: result.retryAfter,
    status: result.status,
    now,
    random: input.random,
  });
  if (delay === null) return { status: 'exhausted', nextAttemptAt: null, disableReason: null };
  return { status: 'failed', nextAttemptAt: new Date(now.getTime() + delay), disableReason: null };
}
