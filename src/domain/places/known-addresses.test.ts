import { describe, expect, it } from 'vitest';
import { knownAddresses } from './known-addresses.ts';

const store = (keys: string[]) => ({
  keysAfter: async (after: number, limit: number) => {
    const page = keys.slice(after, after + limit);
    return { keys: page, last: after + page.length };
  },
});

describe('the filter of known addresses', () => {
  it('says "maybe" for everything until it has read the cache', () => {
    expect(knownAddresses(store([])).mayKnow('anything')).toBe(true);
  });

  it('never misses a key of the cache or one added here, and rarely claims one it never saw', async () => {
    const cached = Array.from({ length: 50_000 }, (_, i) => `${i} rue du cache 75011 paris`);
    const known = knownAddresses(store(cached));
    await known.refresh();
    expect(cached.every((key) => known.mayKnow(key))).toBe(true);
    known.add('1 rue neuve 93100 montreuil');
    expect(known.mayKnow('1 rue neuve 93100 montreuil')).toBe(true);
    let falsePositives = 0;
    for (let i = 0; i < 20_000; i++)
      if (known.mayKnow(`${i} avenue jamais vue 94300 vincennes`)) falsePositives++;
    expect(falsePositives / 20_000).toBeLessThan(0.01);
  });

  it('reads only the rows written since its last read', async () => {
    const keys = ['a'];
    const calls: number[] = [];
    const known = knownAddresses({
      keysAfter: async (after, limit) => {
        calls.push(after);
        return store(keys).keysAfter(after, limit);
      },
    });
    await known.refresh();
    keys.push('b');
    await known.refresh();
    expect(calls).toEqual([0, 1]);
    expect(known.mayKnow('b')).toBe(true);
  });
});
