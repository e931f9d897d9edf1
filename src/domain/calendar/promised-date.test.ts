import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBusinessDay } from './business-days.ts';
import { parisLocalTime } from './paris-time.ts';
import { promisedDate, startDate } from './promised-date.ts';

const at = (iso: string) => new Date(iso);

describe('promisedDate', () => {
  it('delivers express the same day before noon, standard the next business day, economy in 3', () => {
    const wednesdayMorning = at('2025-06-11T08:00:00Z'); // 10:00 Paris
    expect(promisedDate('express', wednesdayMorning)).toBe('2025-06-11');
    expect(promisedDate('standard', wednesdayMorning)).toBe('2025-06-12');
    expect(promisedDate('economy', wednesdayMorning)).toBe('2025-06-16');
  });

  it('starts the next business day at exactly the cut-off, not a minute before', () => {
    // Summer: Paris = UTC+2.
    expect(promisedDate('express', at('2025-06-11T09:59:59Z'))).toBe('2025-06-11');
    expect(promisedDate('express', at('2025-06-11T10:00:00Z'))).toBe('2025-06-12');
    expect(promisedDate('standard', at('2025-06-11T13:59:00Z'))).toBe('2025-06-12');
    expect(promisedDate('standard', at('2025-06-11T14:00:00Z'))).toBe('2025-06-13');
    expect(promisedDate('economy', at('2025-06-11T13:59:00Z'))).toBe('2025-06-16');
    expect(promisedDate('economy', at('2025-06-11T14:00:00Z'))).toBe('2025-06-17');
  });

  describe('cut-off in Paris time around the DST changes', () => {
    // Clocks go forward on Sunday 30 March 2025 and back on Sunday 26 October 2025. The same UTC
    // time falls before noon in Paris on one side of the change and after it on the other.
    it.each([
      // Friday 28 March, UTC+1: noon Paris is 11:00Z.
      ['2025-03-28T10:59:00Z', '2025-03-28'],
      ['2025-03-28T11:00:00Z', '2025-03-31'],
      // Monday 31 March, UTC+2: noon Paris is 10:00Z.
      ['2025-03-31T09:59:00Z', '2025-03-31'],
      ['2025-03-31T10:00:00Z', '2025-04-01'],
      ['2025-03-31T10:59:00Z', '2025-04-01'],
      // Friday 24 October, UTC+2.
      ['2025-10-24T09:59:00Z', '2025-10-24'],
      ['2025-10-24T10:00:00Z', '2025-10-27'],
      // Monday 27 October, UTC+1.
      ['2025-10-27T10:59:00Z', '2025-10-27'],
      ['2025-10-27T11:00:00Z', '2025-10-28'],
      // 2026: 29 March and 25 October.
      ['2026-03-27T10:59:00Z', '2026-03-27'],
      ['2026-03-30T10:00:00Z', '2026-03-31'],
      ['2026-10-23T09:59:00Z', '2026-10-23'],
      ['2026-10-26T10:59:00Z', '2026-10-26'],
    ])('express ordered at %s → %s', (iso, expected) => {
      expect(promisedDate('express', at(iso))).toBe(expected);
    });

    it.each([
      ['2025-03-28T14:59:00Z', '2025-03-31'], // Friday 15:59 Paris
      ['2025-03-28T15:00:00Z', '2025-04-01'], // Friday 16:00 Paris
      ['2025-03-31T13:59:00Z', '2025-04-01'], // Monday 15:59 Paris
      ['2025-03-31T14:00:00Z', '2025-04-02'],
      ['2025-10-27T14:59:00Z', '2025-10-28'],
      ['2025-10-27T15:00:00Z', '2025-10-29'],
    ])('standard ordered at %s → %s', (iso, expected) => {
      expect(promisedDate('standard', at(iso))).toBe(expected);
    });
  });

  it('uses the Paris date, not the UTC one, around midnight', () => {
    // 23:30Z on Monday 30 June is 01:30 on Tuesday 1 July in Paris.
    expect(promisedDate('express', at('2025-06-30T23:30:00Z'))).toBe('2025-07-01');
  });

  it('starts the next business day on weekends and holidays', () => {
    expect(promisedDate('express', at('2025-05-10T07:00:00Z'))).toBe('2025-05-12'); // Saturday morning
    expect(promisedDate('express', at('2025-05-07T10:00:00Z'))).toBe('2025-05-09'); // Wed noon, then 8 May
    expect(promisedDate('standard', at('2025-05-01T07:00:00Z'))).toBe('2025-05-05'); // 1 May → Fri, +1 → Mon
    expect(promisedDate('standard', at('2025-12-24T16:00:00Z'))).toBe('2025-12-29'); // 17:00 24 Dec
    expect(promisedDate('economy', at('2025-07-11T15:00:00Z'))).toBe('2025-07-18'); // Fri 17:00 → Tue 15 + 3
    expect(promisedDate('standard', at('2025-06-06T07:00:00Z'))).toBe('2025-06-10'); // Fri → Whit Monday
  });

  it('always promises a business day, in service order, never before today', () => {
    const instants = fc.date({
      min: at('2020-01-01T00:00:00Z'),
      max: at('2035-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(instants, (now) => {
        const today = parisLocalTime(now).date;
        const express = promisedDate('express', now);
        const standard = promisedDate('standard', now);
        const economy = promisedDate('economy', now);
        return (
          [express, standard, economy].every(isBusinessDay) &&
          today <= express &&
          express <= standard &&
          standard < economy &&
          startDate('express', now) >= startDate('standard', now)
        );
      }),
      { numRuns: 300 },
    );
  });
});
