import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import {
  billingPeriodOf,
  dueDateFor,
  formatPeriodFr,
  nextPeriod,
  parsePeriod,
  periodBounds,
  previousPeriod,
} from './billing-period.ts';

describe('billingPeriodOf', () => {
  it.each([
    ['2026-01-31T22:30:00Z', '2026-01'], // 23:30 Paris on 31 Jan: still January
    ['2026-01-31T23:30:00Z', '2026-02'], // 00:30 Paris on 1 Feb, though UTC still reads January
    ['2026-03-31T21:59:59Z', '2026-03'], // summer time (UTC+2): 23:59:59 on 31 Mar
    ['2026-03-31T22:00:00Z', '2026-04'], // 00:00 on 1 Apr
    ['2026-03-01T00:00:00Z', '2026-03'], // 01:00 on 1 Mar (winter time)
    ['2026-02-28T22:59:59Z', '2026-02'],
    ['2026-10-31T22:59:59Z', '2026-10'], // winter time again after 25 Oct: 23:59:59 on 31 Oct
    ['2026-10-31T23:00:00Z', '2026-11'],
    ['2026-09-30T22:00:00Z', '2026-10'], // 00:00 on 1 Oct, still summer time
    ['2025-12-31T23:30:00Z', '2026-01'], // new year in Paris first
  ])('%s is billed in %s', (iso, period) => {
    expect(billingPeriodOf(new Date(iso))).toBe(period);
  });
});

describe('periodBounds', () => {
  it.each([
    ['2026-03', '2026-02-28T23:00:00.000Z', '2026-03-31T22:00:00.000Z'], // clocks go forward inside
    ['2026-10', '2026-09-30T22:00:00.000Z', '2026-10-31T23:00:00.000Z'], // clocks go back inside
    ['2026-01', '2025-12-31T23:00:00.000Z', '2026-01-31T23:00:00.000Z'],
    ['2026-07', '2026-06-30T22:00:00.000Z', '2026-07-31T22:00:00.000Z'],
    ['2026-12', '2026-11-30T23:00:00.000Z', '2026-12-31T23:00:00.000Z'], // end crosses the year
    ['2028-02', '2028-01-31T23:00:00.000Z', '2028-02-29T23:00:00.000Z'], // leap year
  ])('%s is [%s, %s)', (period, start, end) => {
    const bounds = periodBounds(period);
    expect(bounds.start.toISOString()).toBe(start);
    expect(bounds.end.toISOString()).toBe(end);
  });

  it('is half-open and agrees with billingPeriodOf at both edges', () => {
    for (const period of ['2026-03', '2026-10', '2027-01']) {
      const { start, end } = periodBounds(period);
      expect(billingPeriodOf(start)).toBe(period);
      expect(billingPeriodOf(new Date(start.getTime() - 1))).not.toBe(period);
      expect(billingPeriodOf(new Date(end.getTime() - 1))).toBe(period);
      expect(billingPeriodOf(end)).toBe(nextPeriod(period));
    }
  });

  it('tiles the year without gaps or overlaps', () => {
    let period = '2026-01';
    for (let i = 0; i < 12; i++) {
      const next = nextPeriod(period);
      expect(periodBounds(period).end).toEqual(periodBounds(next).start);
      period = next;
    }
    expect(period).toBe('2027-01');
  });

  it('rejects a bad period', () => {
    expect(() => periodBounds('2026-13')).toThrow(AppError);
  });
});

describe('previousPeriod', () => {
  it.each([
    ['2026-12-01T04:00:00Z', '2026-11'], // the monthly job's run
    ['2026-01-01T00:30:00Z', '2025-12'], // January in Paris, previous year
    ['2025-12-31T23:30:00Z', '2025-12'], // already 1 Jan in Paris, though UTC reads December
    ['2026-03-15T12:00:00Z', '2026-02'],
  ])('at %s is %s', (iso, period) => {
    expect(previousPeriod(new Date(iso))).toBe(period);
  });
});

describe('parsePeriod', () => {
  it.each(['2026-01', '2026-12', '2000-06', '2999-12', ' 2026-11 '])('accepts %j', (input) => {
    expect(parsePeriod(input)).toBe(input.trim());
  });

  it.each(['2026-00', '2026-13', '2026-1', '26-01', '1999-12', '3000-01', '2026/01', '2026-01-01', ''])(
    'rejects %j as an invalid month field',
    (input) => {
      try {
        parsePeriod(input);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        expect(err).toMatchObject({
          code: 'invalid_request',
          details: [{ field: 'month', message: 'must be YYYY-MM' }],
        });
      }
    },
  );
});

describe('dueDateFor', () => {
  it.each([
    ['2026-12-01T05:00:00Z', '2026-12-31'],
    ['2026-11-30T23:30:00Z', '2026-12-31'], // 00:30 on 1 Dec in Paris
    ['2026-01-31T12:00:00Z', '2026-03-02'],
    ['2026-03-01T10:00:00Z', '2026-03-31'], // across the spring DST change
  ])('issued at %s is due %s', (iso, due) => {
    expect(dueDateFor(new Date(iso))).toBe(due);
  });
});

describe('formatPeriodFr', () => {
  it('spells the month in French', () => {
    expect(formatPeriodFr('2026-11')).toBe('novembre 2026');
    expect(formatPeriodFr('2026-02')).toBe('février 2026');
    expect(formatPeriodFr('2026-08')).toBe('août 2026');
  });
});
