import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cursorCodec, keyFromSecret, lazyCursorCodec } from './cursor.ts';

const codec = cursorCodec(randomBytes(32));
const scope = { list: 'orders', brandId: 'brd_9a8b7c6d5e4f3a2b', filter: 'pending' };
const refused = expect.objectContaining({
  code: 'invalid_request',
  details: [expect.objectContaining({ field: 'cursor' })],
});

describe('list cursors', () => {
  it('round-trip any position, and say nothing readable about it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (position) => {
        const cursor = codec.encode(scope, position);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]{1,100}$/);
        expect(codec.decode(scope, cursor)).toBe(position);
      }),
    );
    const cursor = codec.encode(scope, '19');
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain('19');
    // A fresh nonce each time: two cursors to one position do not even look alike.
    expect(codec.encode(scope, '19')).not.toBe(cursor);
  });

  it('refuse a cursor of another brand, list or filter', () => {
    const cursor = codec.encode(scope, '19');
    for (const other of [
      { ...scope, brandId: 'brd_0000000000000000' },
      { ...scope, list: 'invoices' },
      { ...scope, filter: '' },
      { ...scope, filter: 'delivered' },
    ]) {
      expect(() => codec.decode(other, cursor), JSON.stringify(other)).toThrow(refused);
    }
  });

  it('refuse tampered, truncated, made-up and garbage cursors', () => {
    const cursor = codec.encode(scope, '19');
    const raw = Buffer.from(cursor, 'base64url');
    const flipped = (i: number) => {
      const copy = Buffer.from(raw);
      copy[i]! ^= 1;
      return copy.toString('base64url');
    };
    const bad = [
      '',
      'abc',
      '!!!!',
      'x'.repeat(500),
      cursor.slice(0, -2),
      `${cursor}AA`,
      flipped(0),
      flipped(5),
      flipped(raw.length - 1),
      flipped(14),
      Buffer.from('o1.19').toString('base64url'),
      cursorCodec(randomBytes(32)).encode(scope, '19'),
    ];
    for (const cursor of bad) expect(() => codec.decode(scope, cursor), cursor).toThrow(refused);
  });

  it('derive one key from one CURSOR_SECRET, so instances sharing it accept each other’s cursors', () => {
    const secret = 'a-secret-of-at-least-thirty-two-characters';
    const a = cursorCodec(keyFromSecret(secret));
    const b = cursorCodec(keyFromSecret(secret));
    expect(b.decode(scope, a.encode(scope, '42'))).toBe('42');
    expect(() => cursorCodec(keyFromSecret(`${secret}!`)).decode(scope, a.encode(scope, '42'))).toThrow(
      refused,
    );
  });

  it('load the key once, and again after a failed load', async () => {
    let loads = 0;
    const lazy = lazyCursorCodec(async () => {
      loads++;
      if (loads === 1) throw new Error('database down');
      return randomBytes(32);
    });
    await expect(lazy.ready()).rejects.toThrow('database down');
    const first = await lazy.ready();
    expect(await lazy.ready()).toBe(first);
    expect(loads).toBe(2);
  });
});
