import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { vatCents } from '../pricing/money.ts';
import { type InvoiceLine, lineFromOrder, totalsOf } from './invoice-totals.ts';

const order = (priceExclTaxCents: number, i = 0) => ({
  trackingRef: `DLV-${String(i).padStart(10, '0')}`,
  service: 'standard',
  createdAt: new Date('2026-11-10T09:00:00Z'),
  priceExclTaxCents,
});

describe('lineFromOrder', () => {
  it('rounds VAT on the line, half up', () => {
    expect(lineFromOrder(order(247))).toMatchObject({
      priceExclTaxCents: 247,
      vatCents: 49,
      priceCents: 296,
    });
    expect(lineFromOrder(order(248))).toMatchObject({
      priceExclTaxCents: 248,
      vatCents: 50,
      priceCents: 298,
    });
    expect(lineFromOrder(order(840))).toMatchObject({ vatCents: 168, priceCents: 1008 });
  });

  it('keeps the order identity', () => {
    const line = lineFromOrder(order(840, 7));
    expect(line.trackingRef).toBe('DLV-0000000007');
    expect(line.service).toBe('standard');
    expect(line.createdAt.toISOString()).toBe('2026-11-10T09:00:00.000Z');
  });
});

describe('totalsOf', () => {
  it('is zero for no lines', () => {
    expect(totalsOf([])).toEqual({ orderCount: 0, totalExclTaxCents: 0, vatCents: 0, totalCents: 0 });
  });

  it('computes the VAT once on the basis (BR-CO-17), not as the sum of the rounded line VAT', () => {
    // 3 × 2.47 €: VAT per line 0.49 € (1.47 € summed), 20 % of 7.41 € rounds to 1.48 €.
    const totals = totalsOf([247, 247, 247].map((c, i) => lineFromOrder(order(c, i))));
    expect(totals).toEqual({ orderCount: 3, totalExclTaxCents: 741, vatCents: 148, totalCents: 889 });
  });

  it('does not drift over many lines: 301 lines of 0.07 € at 20 %', () => {
    const lines = Array.from({ length: 301 }, (_, i) => lineFromOrder(order(7, i)));
    // Each line's VAT, 0.014 €, rounds to 0.01 € (3.01 € summed); 20 % of 21.07 € is 4.21 €.
    expect(lines.reduce((a, l) => a + l.vatCents, 0)).toBe(301);
    expect(totalsOf(lines)).toEqual({
      orderCount: 301,
      totalExclTaxCents: 2107,
      vatCents: 421,
      totalCents: 2528,
    });
  });

  it('property: the basis is the sum of the lines, VAT its rate rounded once, total = excl + VAT', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 300 }), (prices) => {
        const lines: InvoiceLine[] = prices.map((p, i) => lineFromOrder(order(p, i)));
        const totals = totalsOf(lines);
        expect(totals.orderCount).toBe(prices.length);
        expect(totals.totalExclTaxCents).toBe(prices.reduce((a, b) => a + b, 0));
        expect(totals.vatCents).toBe(vatCents(totals.totalExclTaxCents));
        expect(totals.totalCents).toBe(totals.totalExclTaxCents + totals.vatCents);
        for (const line of lines) expect(line.priceCents).toBe(line.priceExclTaxCents + line.vatCents);
      }),
    );
  });
});
