import { describe, expect, it } from 'vitest';
import { boundedMemo } from './bounded-memo.ts';

describe('boundedMemo', () => {
  it('computes a key once, null included; forgets every key past its limit; stores nothing when the computation throws', () => {
    const memo = boundedMemo<string, string | null>(2);
    let computed = 0;
    const answer = (key: string) =>
      memo(key, () => {
        computed += 1;
        return key === 'none' ? null : key.toUpperCase();
      });
    expect([answer('a'), answer('a'), answer('none'), answer('none')]).toEqual(['A', 'A', null, null]);
    expect(computed).toBe(2);
    answer('b'); // a third key: the first two are forgotten
    answer('b');
    expect(computed).toBe(3);
    answer('a');
    expect(computed).toBe(4);

    expect(() =>
      memo('bad', () => {
        throw new Error('no answer');
      }),
    ).toThrow('no answer');
    expect(memo('bad', () => 'later')).toBe('later');
  });
});
