import { describe, expect, it } from 'vitest';
import { scrapeCache } from './scrape-cache.ts';

describe('scrapeCache', () => {
  it('reads once per period, shares a read in flight, and keeps no failure', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const read = scrapeCache(
      async () => {
        reads++;
        if (fail) throw new Error('database away');
        return reads;
      },
      5_000,
      () => now,
    );
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    now = 4_999;
    expect(await read()).toBe(1);
    now = 5_000;
    fail = true;
    await expect(read()).rejects.toThrow('database away');
    fail = false;
    expect(await read()).toBe(3);
    expect(reads).toBe(3);
  });
});
