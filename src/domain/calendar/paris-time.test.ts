import { describe, expect, it } from 'vitest';
import { parisLocalTime } from './paris-time.ts';

describe('parisLocalTime', () => {
  it.each([
    ['2025-01-15T11:00:00Z', '2025-01-15', 12, 0], // winter, UTC+1
    ['2025-07-15T10:00:00Z', '2025-07-15', 12, 0], // summer, UTC+2
    ['2025-03-30T00:59:00Z', '2025-03-30', 1, 59], // just before clocks go forward
    ['2025-03-30T01:00:00Z', '2025-03-30', 3, 0], // just after
    ['2025-10-26T00:59:00Z', '2025-10-26', 2, 59], // first 02:59 of the night clocks go back
    ['2025-10-26T01:00:00Z', '2025-10-26', 2, 0], // second 02:00
    ['2025-12-31T23:30:00Z', '2026-01-01', 0, 30], // already next year in Paris
    ['2025-06-30T22:00:00Z', '2025-07-01', 0, 0], // midnight is hour 0, not 24
  ])('%s is %s %d:%d in Paris', (iso, date, hour, minute) => {
    expect(parisLocalTime(new Date(iso))).toEqual({ date, hour, minute });
  });

  it('rejects an invalid instant', () => {
    expect(() => parisLocalTime(new Date('nope'))).toThrow(RangeError);
  });
});
