import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { boardWatcher } from '../src/http/console/board-watcher.ts';

/**
 * The live board's poller: one read per day watched and per poll, whatever the number of open
 * boards, and none at all while no board is open (issue 39: the board must stay cheap).
 */
function countingReader() {
  const reads: string[] = [];
  let value = 'a';
  return {
    reads,
    change: (next: string) => {
      value = next;
    },
    fingerprint: async (date: string) => {
      reads.push(date);
      return value;
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the board watcher', () => {
  it('reads nothing while no board is open', async () => {
    const reader = countingReader();
    const watcher = boardWatcher(reader, { pollMs: 1000 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reader.reads).toEqual([]);
    watcher.close();
  });

  it('shares one read per poll among every open board of the day, and tells each of a change', async () => {
    const reader = countingReader();
    const watcher = boardWatcher(reader, { pollMs: 1000 });
    const told = [0, 0, 0, 0, 0];
    const stops = told.map((_, i) =>
      watcher.watch('2026-11-30', () => {
        told[i]!++;
      }),
    );
    expect(watcher.watching()).toBe(5);
    await vi.advanceTimersByTimeAsync(3000);
    // The day's mark at once, then three polls, for five clients: four reads, not twenty.
    expect(reader.reads).toEqual(['2026-11-30', '2026-11-30', '2026-11-30', '2026-11-30']);
    expect(told).toEqual([0, 0, 0, 0, 0]);
    reader.change('b');
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toEqual([1, 1, 1, 1, 1]);
    // Once every board is closed, the polling stops.
    for (const stop of stops) stop();
    expect(watcher.watching()).toBe(0);
    const before = reader.reads.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reader.reads.length).toBe(before);
    // And starts again with the next board.
    watcher.watch('2026-11-30', () => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(reader.reads.length).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(reader.reads.length).toBe(before + 2);
    watcher.close();
  });

  it('never piles reads up behind a slow database, and survives a failing one', async () => {
    let calls = 0;
    let fail = true;
    const slow = {
      fingerprint: (_date: string) => {
        calls++;
        if (fail) return Promise.reject(new Error('down'));
        return new Promise<string>((resolve) => setTimeout(() => resolve(String(calls)), 5000));
      },
    };
    const watcher = boardWatcher(slow, { pollMs: 1000 });
    let told = 0;
    watcher.watch('2026-11-30', () => {
      told++;
    });
    await vi.advanceTimersByTimeAsync(2000);
    // At once, then once a period: a failing database is not read in a tight loop.
    expect(calls).toBe(3);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(4);
    // The read takes 5 s: no other read starts meanwhile.
    await vi.advanceTimersByTimeAsync(4000);
    expect(calls).toBe(4);
    await vi.advanceTimersByTimeAsync(2500);
    expect(calls).toBe(5);
    await vi.advanceTimersByTimeAsync(6000);
    expect(told).toBeGreaterThanOrEqual(1);
    watcher.close();
  });

  it('marks a newly opened day at once: a change right after a board connects is told', async () => {
    const reader = countingReader();
    const watcher = boardWatcher(reader, { pollMs: 1000 });
    let told = 0;
    watcher.watch('2026-11-30', () => {
      told++;
    });
    // The board connected; a courier's scan lands 100 ms later, before a first poll period.
    await vi.advanceTimersByTimeAsync(100);
    reader.change('b');
    await vi.advanceTimersByTimeAsync(1000);
    expect(told).toBe(1);
    // A second day opened between two polls is marked at once too, not a period later.
    watcher.watch('2026-12-01', () => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(reader.reads.filter((d) => d === '2026-12-01')).toHaveLength(1);
    watcher.close();
  });
});
