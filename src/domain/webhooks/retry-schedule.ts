const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** SPEC §8: the wait after each failed attempt; the first attempt is immediate, so 8 in total. */
export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Spreads retries so an endpoint coming back up is not hit by every queued event at once. */
const JITTER_RATIO = 0.1;

/** A Retry-After beyond this is treated as this: a receiver must not park deliveries for days. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** SPEC §8: an endpoint failing for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * HOUR;

export interface NextAttemptInput {
  /** How many attempts have been made so far (1 after the first failure). */
  attempt: number;
  /** The failed response's Retry-After header, raw. */
  retryAfterHeader?: string | null;
  /** The failed response's status. When given, Retry-After counts only on 429 and 503. */
  status?: number | null;
  /** Needed to read an HTTP-date Retry-After; defaults to the current time. */
  now?: Date;
  /** In [0, 1); injectable so tests are deterministic. */
  random?: () => number;
}

/** Milliseconds to wait before the next attempt, or null when the schedule is exhausted. */
export function nextAttemptDelay(input: NextAttemptInput): number | null {
  const { attempt } = input;
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  }
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return null;
  const random = input.random ?? Math.random;
  const jittered = Math.round(base * (1 + (random() * 2 - 1) * JITTER_RATIO));

  const honoursRetryAfter = input.status == null || input.status === 429 || input.status === 503;
  const asked = honoursRetryAfter ? parseRetryAfter(input.retryAfterHeader, input.now ?? new Date()) : null;
  // Retry-After can only lengthen the wait: a receiver must not be able to speed up retries.
  return asked === null ? jittered : Math.max(jittered, Math.min(asked, MAX_RETRY_AFTER_MS));
}

/** A Retry-After value (delay-seconds or HTTP-date, RFC 9110 §10.2.3) in ms; null if unusable. */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * SECOND;
  // Only a date-like value: Date.parse also accepts bare numbers such as "-5" or "1.5".
  if (!/[a-z]/i.test(value)) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  const delay = at - now.getTime();
  return delay > 0 ? delay : null;
}

export interface DisableInput {
  /** Start of the current run of failures; null when the last attempt succeeded. */
  firstFailureAt: Date | null;
  now: Date;
  lastStatus: number | null;
}

/** 410 Gone is the receiver saying the endpoint is gone for good, so no more attempts are useful. */
export function shouldDisableEndpoint(input: DisableInput): boolean {
  if (input.lastStatus === 410) return true;
  if (input.firstFailureAt === null) return false;
  return input.now.getTime() - input.firstFailureAt.getTime() >= DISABLE_AFTER_MS;
}
