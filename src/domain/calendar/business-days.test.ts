import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addBusinessDays, isBusinessDay, nextBusinessDay } from './business-days.ts';
import { isPublicHoliday } from './holidays.ts';
import { addDays, dayOfWeek } from './iso-date.ts';

const RUNS = { numRuns: 300 };
/** Any day from 2000 to 2099. */
const anyDate = fc.integer({ min: 0, max: 36_500 }).map((offset) => addDays('2000-01-01', offset));
const smallN = fc.integer({ min: 0, max: 40 });

describe('isBusinessDay', () => {
  it.each([
    ['2025-05-05', true], // Monday
    ['2025-05-09', true], // Friday
    ['2025-05-10', false], // Saturday
    ['2025-05-11', false], // Sunday
    ['2025-05-01', false], // Labour Day, a Thursday
    ['2025-07-14', false], // Bastille Day, a Monday
    ['2025-05-29', false], // Ascension
    ['2025-06-09', false], // Whit Monday
    ['2025-12-25', false],
    ['2026-01-01', false],
    ['2025-04-18', true], // Good Friday: Alsace-Moselle only
    ['2025-12-26', true],
  ])('%s → %s', (date, expected) => {
    expect(isBusinessDay(date)).toBe(expected);
  });

  it('rejects dates that do not exist', () => {
    expect(() => isBusinessDay('2025-02-29')).toThrow(/calendar date/);
    expect(() => isBusinessDay('25-01-01')).toThrow(/calendar date/);
  });
});

describe('addBusinessDays', () => {
  it.each([
    ['2025-04-30', 1, '2025-05-02'], // over 1 May
    ['2025-05-07', 1, '2025-05-09'], // over 8 May
    ['2025-05-28', 1, '2025-05-30'], // over Ascension
    ['2025-06-06', 1, '2025-06-10'], // Friday → over the weekend and Whit Monday
    ['2025-07-11', 1, '2025-07-15'], // over 14 July
    ['2025-12-24', 1, '2025-12-26'], // over Christmas
    ['2025-12-31', 1, '2026-01-02'], // over New Year
    ['2025-05-05', 0, '2025-05-05'], // a business day itself
    ['2025-05-10', 0, '2025-05-12'], // Saturday rolls to Monday
    ['2025-05-01', 0, '2025-05-02'], // holiday rolls forward
    ['2025-05-09', 3, '2025-05-14'], // Friday + 3
  ])('%s + %d → %s', (date, n, expected) => {
    expect(addBusinessDays(date, n)).toBe(expected);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => addBusinessDays('2025-05-05', -1)).toThrow(RangeError);
    expect(() => addBusinessDays('2025-05-05', 1.5)).toThrow(RangeError);
  });

  it('never lands on a weekend or a holiday', () => {
    fc.assert(
      fc.property(anyDate, smallN, (date, n) => {
        const result = addBusinessDays(date, n);
        const weekday = dayOfWeek(result);
        return weekday !== 0 && weekday !== 6 && !isPublicHoliday(result);
      }),
      RUNS,
    );
  });

  it('is strictly increasing in n', () => {
    fc.assert(
      fc.property(anyDate, smallN, smallN, (date, a, b) => {
        fc.pre(a !== b);
        const [lo, hi] = a < b ? [a, b] : [b, a];
        return addBusinessDays(date, lo) < addBusinessDays(date, hi);
      }),
      RUNS,
    );
  });

  it('never goes back when the start moves later', () => {
    fc.assert(
      fc.property(anyDate, fc.integer({ min: 0, max: 30 }), smallN, (date, later, n) => {
        return addBusinessDays(date, n) <= addBusinessDays(addDays(date, later), n);
      }),
      RUNS,
    );
  });

  it('skips exactly n business days after a business-day start', () => {
    fc.assert(
      fc.property(anyDate, smallN, (date, n) => {
        const start = addBusinessDays(date, 0);
        const end = addBusinessDays(start, n);
        let count = 0;
        for (let day = addDays(start, 1); day <= end; day = addDays(day, 1)) {
          if (isBusinessDay(day)) count++;
        }
        return count === n && start >= date;
      }),
      RUNS,
    );
  });

  it('agrees with nextBusinessDay for n = 1 from a business day', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const start = addBusinessDays(date, 0);
        return addBusinessDays(start, 1) === nextBusinessDay(start);
      }),
      RUNS,
    );
  });
});
