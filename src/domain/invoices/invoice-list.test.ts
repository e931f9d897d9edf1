import { describe, expect, it } from 'vitest';
import { comesAfter, formatPosition, invoicesBefore, newestFirst, parsePosition } from './invoice-list.ts';

describe('invoice list position (sealed in the opaque cursor)', () => {
  it('round-trips an invoice position and a credit note position', () => {
    for (const at of [
      { period: '2026-10', key: '' },
      { period: '2026-10', key: 'A2027-000042' },
    ]) {
      expect(parsePosition(formatPosition(at))).toEqual(at);
    }
  });

  it.each(['abc', '2026-13.', '2026-10.F2026-000001', '2026-10.A2026-000001.x', '2026-10.A2026-000001.'])(
    'refuses %s as invalid_request on cursor',
    (text) => {
      expect(() => parsePosition(text)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    },
  );
});

describe('list order', () => {
  it('puts newer periods first, then credit notes (newest first) before their invoice', () => {
    const items = [
      { period: '2026-09', key: '' },
      { period: '2026-10', key: 'A2026-000001' },
      { period: '2026-10', key: '' },
      { period: '2026-10', key: 'A2027-000001' },
      { period: '2026-11', key: '' },
    ];
    expect([...items].sort(newestFirst)).toEqual([items[4], items[3], items[1], items[2], items[0]]);
    expect(comesAfter(items[2]!, items[1]!)).toBe(true);
    expect(comesAfter(items[1]!, items[2]!)).toBe(false);
  });

  it('bounds the invoices query: after a credit note, its own month’s invoice still follows', () => {
    expect(invoicesBefore({ period: '2026-10', key: '' })).toBe('2026-10');
    expect(invoicesBefore({ period: '2026-10', key: 'A2026-000001' })).toBe('2026-11');
    expect(invoicesBefore({ period: '2026-12', key: 'A2026-000001' })).toBe('2027-01');
  });
});
