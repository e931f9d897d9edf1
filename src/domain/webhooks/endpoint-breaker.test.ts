import { describe, expect, it } from 'vitest';
import { endpointBreakers } from './endpoint-breaker.ts';

describe('endpoint circuit breakers', () => {
  const policy = { failures: 3, pauseMs: 1000 };

  it('open after consecutive failures, let one probe through after the pause, close on its success', () => {
    const b = endpointBreakers(policy);
    expect(b.allowance('whk_a', 0)).toBeNull();
    expect(b.record('whk_a', false, 0)).toBeNull();
    expect(b.record('whk_a', false, 10)).toBeNull();
    expect(b.record('whk_a', false, 20)).toBe('opened');
    expect(b.allowance('whk_a', 500)).toBe(0);
    // Another endpoint is not concerned.
    expect(b.allowance('whk_b', 500)).toBeNull();
    expect(b.allowance('whk_a', 1020)).toBe(1);
    expect(b.record('whk_a', true, 1100)).toBe('closed');
    expect(b.allowance('whk_a', 1100)).toBeNull();
    expect(b.tracked()).toEqual([]);
  });

  it('a success in between resets the count; a failed probe opens it again for a full pause', () => {
    const b = endpointBreakers(policy);
    b.record('whk_a', false, 0);
    b.record('whk_a', false, 1);
    expect(b.record('whk_a', true, 2)).toBeNull();
    b.record('whk_a', false, 3);
    b.record('whk_a', false, 4);
    expect(b.record('whk_a', false, 5)).toBe('opened');
    // An attempt started before it opened fails late: the pause is not extended.
    expect(b.record('whk_a', false, 600)).toBeNull();
    expect(b.allowance('whk_a', 1005)).toBe(1);
    expect(b.record('whk_a', false, 1200)).toBe('opened');
    expect(b.allowance('whk_a', 2100)).toBe(0);
    expect(b.allowance('whk_a', 2200)).toBe(1);
  });
});
