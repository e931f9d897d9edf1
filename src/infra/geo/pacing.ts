/**
 * What an outside engine's client needs to be a good citizen: a pace (at most `perSecond` requests,
 * evenly spaced, shared by every caller of the process, paused whole when the engine says "later"),
 * and a breaker (after `failures` consecutive failures, nothing is sent for `pauseMs`, then one
 * request tries again), both told apart from the engine's own adapter so each is tested once.
 */
export interface Pace {
  /**
   * Waits for this request's turn; false (at once, without waiting) when the turn comes after
   * `deadline` (epoch ms): the caller answers "throttled" rather than queue past its budget.
   */
  turn(deadline: number): Promise<boolean>;
  /** The engine asked to wait (429 Retry-After): no turn before `until` (epoch ms). */
  pauseUntil(until: number): void;
}

export function pace(perSecond: number, now: () => number = Date.now): Pace {
  const gap = 1000 / perSecond;
  let next = 0;
  return {
    async turn(deadline) {
      const t = now();
      const slot = Math.max(t, next);
      if (slot > deadline) return false;
      next = slot + gap;
      if (slot > t) await new Promise((resolve) => setTimeout(resolve, slot - t));
      return true;
    },
    pauseUntil(until) {
      next = Math.max(next, until);
    },
  };
}

export interface Breaker {
  /** Whether a request may go: closed, or open long enough for one trial. */
  allows(): boolean;
  succeeded(): void;
  /** Returns true when this failure opened the breaker (the caller logs it once). */
  failed(): boolean;
  readonly open: boolean;
}

export function breaker(
  options: { failures: number; pauseMs: number },
  now: () => number = Date.now,
): Breaker {
  let consecutive = 0;
  let openUntil = 0;
  let isOpen = false;
  return {
    allows() {
      if (!isOpen) return true;
      if (now() < openUntil) return false;
      // Half-open: this one tries; a failure opens it again for a whole pause.
      openUntil = now() + options.pauseMs;
      return true;
    },
    succeeded() {
      consecutive = 0;
      isOpen = false;
    },
    failed() {
      consecutive++;
      if (consecutive < options.failures) return false;
      const opening = !isOpen;
      isOpen = true;
      openUntil = now() + options.pauseMs;
      return opening;
    },
    get open() {
      return isOpen;
    },
  };
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential backoff with full jitter: 100 ms, 200 ms, 400 ms… (at most 5 s) before attempt n+1. */
export const backoffMs = (attempt: number, random: () => number = Math.random): number =>
  Math.round(Math.min(5_000, 100 * 2 ** attempt) * (0.5 + random() / 2));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
