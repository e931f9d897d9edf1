import { describe, expect, it } from 'vitest';
import { redisHealth } from './redis-health.ts';

describe('redisHealth', () => {
  it('logs an outage once a minute however many requests fail, then the recovery once', () => {
    let now = 0;
    const lines: { level: string; fields: Record<string, unknown> }[] = [];
    const health = redisHealth({ now: () => now });
    health.logTo((level, fields) => lines.push({ level, fields }));
    expect(health.failingOpen()).toBe(false);

    for (let i = 0; i < 1000; i++) {
      health.failed(new Error('connect ECONNREFUSED'));
      now += 50; // 1,000 failures over 50 s
    }
    expect(lines).toHaveLength(1);
    expect(health.failingOpen()).toBe(true);
    now = 60_000;
    health.failed(new Error('connect ECONNREFUSED'));
    expect(lines).toHaveLength(2);
    expect(lines[1]!.fields).toMatchObject({ failuresSinceLastLine: 999 });

    health.answered();
    health.answered();
    expect(health.failingOpen()).toBe(false);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'warn', 'info']);
    // A new outage is said at once.
    health.failed(new Error('again'));
    expect(lines).toHaveLength(4);
  });
});
