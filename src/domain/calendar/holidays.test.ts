import { afterAll, describe, expect, it } from 'vitest';
import { isPublicHoliday, publicHolidays } from './holidays.ts';

describe('publicHolidays', () => {
  const savedTz = process.env.TZ;
  afterAll(() => {
    process.env.TZ = savedTz;
  });

  // Runs first, before any year is cached: the package computes Easter-based holidays in the
  // server's zone, and Santiago leaves DST between Easter (31 March 2024) and Ascension.
  it('gives the right days whatever the server time zone', () => {
    process.env.TZ = 'America/Santiago';
    expect([...publicHolidays(2024)].sort()).toEqual([
      '2024-01-01',
      '2024-04-01',
      '2024-05-01',
      '2024-05-08',
      '2024-05-09',
      '2024-05-20',
      '2024-07-14',
      '2024-08-15',
      '2024-11-01',
      '2024-11-11',
      '2024-12-25',
    ]);
    process.env.TZ = savedTz;
  });

  it('has the 11 metropolitan holidays, without the Alsace-Moselle ones', () => {
    const days = publicHolidays(2025);
    expect(days.size).toBe(11);
    expect(days.has('2025-04-18')).toBe(false); // Good Friday
    expect(days.has('2025-12-26')).toBe(false); // St Stephen's Day
  });

  it.each([
    ['2025-01-01', "New Year's Day"],
    ['2025-04-21', 'Easter Monday'],
    ['2025-05-01', 'Labour Day'],
    ['2025-05-08', 'Victory in Europe Day'],
    ['2025-05-29', 'Ascension'],
    ['2025-06-09', 'Whit Monday'],
    ['2025-07-14', 'Bastille Day'],
    ['2025-08-15', 'Assumption'],
    ['2025-11-01', "All Saints' Day"],
    ['2025-11-11', 'Armistice'],
    ['2025-12-25', 'Christmas'],
    ['2026-05-14', 'Ascension 2026'],
    ['2026-05-25', 'Whit Monday 2026'],
  ])('%s is a holiday (%s)', (date) => {
    expect(isPublicHoliday(date)).toBe(true);
  });
});
