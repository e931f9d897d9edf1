import { describe, expect, it } from 'vitest';
import { instrumentTasks } from './instrument-tasks.ts';
import type { JobHelpers } from './job.ts';

describe('instrumentTasks', () => {
  it('tells each run’s task, outcome and duration, and lets a failure through to the queue', async () => {
    const seen: Array<[string, string, number]> = [];
    const list: Record<string, (payload: unknown, helpers: JobHelpers) => Promise<void>> = {
      ok: async () => {},
      broken: async () => {
        throw new Error('shop down');
      },
    };
    const tasks = instrumentTasks(list, {
      finished: (task, outcome, seconds) => seen.push([task, outcome, seconds]),
    });
    const helpers = {} as JobHelpers;
    await tasks.ok!(undefined, helpers);
    await expect(tasks.broken!(undefined, helpers)).rejects.toThrow('shop down');
    expect(seen.map(([task, outcome]) => [task, outcome])).toEqual([
      ['ok', 'succeeded'],
      ['broken', 'failed'],
    ]);
    for (const [, , seconds] of seen) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it('gives the list back as it was when there is nothing to tell (no observer, no tracing)', () => {
    const list = { ok: async () => {} };
    expect(instrumentTasks(list)).toBe(list);
  });
});
