import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISABLE_AFTER_MS,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  nextAttemptDelay,
  parseRetryAfter,
  RETRY_DELAYS_MS,
  shouldDisableEndpoint,
} from './retry-schedule.ts';

const RUNS = { numRuns: 300 };
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const middle = () => 0.5;
const anyRandom = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
const retryAttempt = fc.integer({ min: 1, max: RETRY_DELAYS_MS.length });

describe('nextAttemptDelay', () => {
  it('follows SPEC §8 without jitter at the midpoint', () => {
    const delays = Array.from({ length: 7 }, (_, i) => nextAttemptDelay({ attempt: i + 1, random: middle }));
    expect(delays).toEqual([5 * S, 5 * M, 30 * M, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('stops after the eighth attempt', () => {
    expect(nextAttemptDelay({ attempt: 8 })).toBeNull();
    expect(nextAttemptDelay({ attempt: 9, retryAfterHeader: '60' })).toBeNull();
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects attempt %s', (attempt) => {
    expect(() => nextAttemptDelay({ attempt })).toThrow(RangeError);
  });

  it('keeps jitter within ±10 % of the schedule', () => {
    fc.assert(
      fc.property(retryAttempt, anyRandom, (attempt, r) => {
        const base = RETRY_DELAYS_MS[attempt - 1]!;
        const delay = nextAttemptDelay({ attempt, random: () => r })!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.9));
        expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.1));
        expect(Number.isInteger(delay)).toBe(true);
      }),
      RUNS,
    );
  });

  it('never shortens: a later attempt waits at least as long for the same draw', () => {
    fc.assert(
      fc.property(retryAttempt, retryAttempt, anyRandom, (a, b, r) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const random = () => r;
        expect(nextAttemptDelay({ attempt: lo, random })!).toBeLessThanOrEqual(
          nextAttemptDelay({ attempt: hi, random })!,
        );
      }),
      RUNS,
    );
  });

  it('honours a longer Retry-After in seconds', () => {
    expect(nextAttemptDelay({ attempt: 1, retryAfterHeader: '120', status: 429, random: middle })).toBe(
      120 * S,
    );
  });

  it('ignores a Retry-After shorter than the schedule', () => {
    expect(nextAttemptDelay({ attempt: 3, retryAfterHeader: '1', status: 503, random: middle })).toBe(30 * M);
  });

  it('honours an HTTP-date Retry-After', () => {
    const now = new Date('2026-03-01T10:00:00Z');
    const delay = nextAttemptDelay({
      attempt: 1,
      retryAfterHeader: 'Sun, 01 Mar 2026 11:00:00 GMT',
      status: 503,
      now,
      random: middle,
    });
    expect(delay).toBe(H);
  });

  it('caps Retry-After at 24 hours', () => {
    expect(nextAttemptDelay({ attempt: 1, retryAfterHeader: '999999', status: 429, random: middle })).toBe(
      MAX_RETRY_AFTER_MS,
    );
  });

  it('uses Retry-After only on 429 and 503 when the status is given', () => {
    expect(nextAttemptDelay({ attempt: 1, retryAfterHeader: '120', status: 500, random: middle })).toBe(
      5 * S,
    );
    expect(nextAttemptDelay({ attempt: 1, retryAfterHeader: '120', random: middle })).toBe(120 * S);
  });

  it('is never below the jittered schedule nor above the cap, whatever the header', () => {
    fc.assert(
      fc.property(retryAttempt, anyRandom, fc.nat({ max: 10 * 24 * 3600 }), (attempt, r, seconds) => {
        const random = () => r;
        const plain = nextAttemptDelay({ attempt, random })!;
        const delay = nextAttemptDelay({ attempt, random, status: 429, retryAfterHeader: String(seconds) })!;
        expect(delay).toBeGreaterThanOrEqual(plain);
        expect(delay).toBeGreaterThanOrEqual(Math.min(seconds * S, MAX_RETRY_AFTER_MS));
        expect(delay).toBeLessThanOrEqual(Math.max(plain, MAX_RETRY_AFTER_MS));
      }),
      RUNS,
    );
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-03-01T10:00:00Z');
  it.each([
    ['0', 0],
    [' 30 ', 30 * S],
    ['Sun, 01 Mar 2026 10:00:30 GMT', 30 * S],
    ['Sun, 01 Mar 2026 09:00:00 GMT', null], // in the past
    ['-5', null],
    ['1.5', null],
    ['soon', null],
    ['', null],
    [null, null],
    [undefined, null],
  ])('%j → %j', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe('shouldDisableEndpoint', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('disables at once on 410 Gone', () => {
    expect(shouldDisableEndpoint({ firstFailureAt: now, now, lastStatus: 410 })).toBe(true);
    expect(shouldDisableEndpoint({ firstFailureAt: null, now, lastStatus: 410 })).toBe(true);
  });

  it('disables after 5 days of continuous failure, not before', () => {
    expect(DISABLE_AFTER_MS).toBe(5 * 24 * H);
    expect(shouldDisableEndpoint({ firstFailureAt: ago(DISABLE_AFTER_MS), now, lastStatus: 500 })).toBe(true);
    expect(shouldDisableEndpoint({ firstFailureAt: ago(DISABLE_AFTER_MS - 1), now, lastStatus: null })).toBe(
      false,
    );
  });

  it('keeps a healthy endpoint', () => {
    expect(shouldDisableEndpoint({ firstFailureAt: null, now, lastStatus: 200 })).toBe(false);
  });

  it('decides by elapsed time alone for statuses other than 410', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10 * DISABLE_AFTER_MS }),
        fc.option(fc.integer({ min: 100, max: 599 }).filter((s) => s !== 410)),
        (elapsed, lastStatus) => {
          expect(shouldDisableEndpoint({ firstFailureAt: ago(elapsed), now, lastStatus })).toBe(
            elapsed >= DISABLE_AFTER_MS,
          );
        },
      ),
      RUNS,
    );
  });
});
