import { describe, expect, it } from 'vitest';
import { millisOf, systemClock } from './clock.ts';

describe('millisOf', () => {
  it('is Date.now for the system clock (no Date per call on hot paths)', () => {
    expect(millisOf(systemClock)).toBe(Date.now);
  });

  it("follows a test's clock", () => {
    let now = new Date('2026-11-23T09:00:00Z');
    const millis = millisOf(() => now);
    expect(millis()).toBe(Date.parse('2026-11-23T09:00:00Z'));
    now = new Date('2026-11-23T09:01:00Z');
    expect(millis()).toBe(Date.parse('2026-11-23T09:01:00Z'));
  });
});
