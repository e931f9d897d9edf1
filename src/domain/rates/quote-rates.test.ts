import { describe, expect, it } from 'vitest';
import type { Destination } from '../coverage/destination.ts';
import { resolveDestination } from '../coverage/destination.ts';
import { loadDefaultGrid } from '../pricing/default-grid.ts';
import { type GridRow, indexGrid } from '../pricing/grid.ts';
import { quoteRates } from './quote-rates.ts';

const parisDest: Destination = { kind: 'in_zone', postcode: '75011', city: 'Paris', zone: 'paris' };
// Wednesday 11 June 2025, 10:00 in Paris.
const now = new Date('2025-06-11T08:00:00Z');

const row = (service: GridRow['service'], first: number, extra = 100): GridRow => ({
  service,
  zone: 'paris',
  unitType: 'parcel',
  maxWeightGrams: 5000,
  firstUnitCents: first,
  extraUnitCents: extra,
});

const base = { unitType: 'parcel', weightGrams: 1000, quantity: 1, now } as const;

describe('quoteRates', () => {
  it('answers every priced service in the JSON shape of POST /rates, cheapest first', () => {
    const grid = indexGrid(loadDefaultGrid());
    const quote = quoteRates({ ...base, grid, destination: parisDest });
    expect(quote.available).toBe(true);
    expect(quote.rates.map((r) => r.service)).toEqual(['economy', 'standard', 'express']);
    expect(quote.rates[1]).toEqual({
      service: 'standard',
      name: 'Standard — next business day',
      price_eur: 9.48, // 7.90 + 20 % VAT
      price_excl_tax_eur: 7.9,
      vat_rate: 0.2,
      currency: 'EUR',
      delay_business_days: 1,
      promised_date: '2025-06-12',
    });
    expect(quote.rates[0]).toMatchObject({ delay_business_days: 3, promised_date: '2025-06-16' });
    expect(quote.rates[2]).toMatchObject({ delay_business_days: 0, promised_date: '2025-06-11' });
  });

  it('multiplies by the quantity and picks the band for the unit weight', () => {
    const grid = indexGrid([
      row('standard', 1000, 250),
      { ...row('standard', 2000, 500), maxWeightGrams: 10_000 },
    ]);
    const quote = quoteRates({ ...base, grid, destination: parisDest, weightGrams: 6000, quantity: 3 });
    expect(quote.rates).toHaveLength(1);
    expect(quote.rates[0]).toMatchObject({ price_excl_tax_eur: 30, price_eur: 36 });
  });

  it('orders equal prices by speed', () => {
    const grid = indexGrid([row('economy', 900), row('standard', 900), row('express', 800)]);
    const quote = quoteRates({ ...base, grid, destination: parisDest });
    expect(quote.rates.map((r) => r.service)).toEqual(['express', 'standard', 'economy']);
  });

  it('leaves out services the grid does not price', () => {
    const grid = indexGrid([row('economy', 700)]);
    expect(quoteRates({ ...base, grid, destination: parisDest }).rates.map((r) => r.service)).toEqual([
      'economy',
    ]);
  });

  it.each([
    ['out of zone', resolveDestination({ deliveryZip: '69001' }), 'out_of_zone'],
    ['unknown postcode', resolveDestination({ deliveryZip: '75099' }), 'unknown_postcode'],
    ['no postcode', resolveDestination({ deliveryAddress: 'rue de la Paix' }), 'unknown_postcode'],
  ] as const)('is unavailable %s, and says so', (_label, destination, reason) => {
    const grid = indexGrid(loadDefaultGrid());
    expect(quoteRates({ ...base, grid, destination })).toEqual({ available: false, rates: [], reason });
  });

  it('is unavailable when nothing is priced: an incomplete grid', () => {
    const grid = indexGrid([row('standard', 900)]);
    const incomplete = { available: false, rates: [], reason: 'incomplete_grid' };
    expect(quoteRates({ ...base, grid, destination: parisDest, weightGrams: 5001 })).toEqual(incomplete);
    expect(quoteRates({ ...base, grid, destination: { ...parisDest, zone: 'grande_couronne' } })).toEqual(
      incomplete,
    );
    expect(quoteRates({ ...base, grid: indexGrid([]), destination: parisDest })).toEqual(incomplete);
  });

  // The seed: "when … the price grid is incomplete, then available is false and rates is empty".
  describe('with an incomplete grid', () => {
    const heavy = (r: GridRow): GridRow => ({ ...r, maxWeightGrams: 30_000 });
    const grid = indexGrid([
      row('economy', 700),
      heavy(row('economy', 1400)),
      row('standard', 900),
      heavy(row('standard', 1800)),
      row('express', 1500), // express stops at 5 kg
      { ...row('economy', 800), zone: 'petite_couronne' },
      { ...row('standard', 1000), zone: 'petite_couronne' }, // no express to petite couronne
      { ...row('economy', 400), unitType: 'envelope' },
      { ...row('standard', 500), unitType: 'envelope' },
      { ...row('express', 600), unitType: 'envelope' },
    ]);

    it('is unavailable when any service the grid offers has no price for the request', () => {
      const unavailable = { available: false, rates: [], reason: 'incomplete_grid' };
      expect(quoteRates({ ...base, grid, destination: parisDest, weightGrams: 6000 })).toEqual(unavailable);
      const petite = { ...parisDest, zone: 'petite_couronne' } as const;
      expect(quoteRates({ ...base, grid, destination: petite })).toEqual(unavailable);
      // Envelopes are priced everywhere only in Paris.
      const envelope = { ...base, unitType: 'envelope' } as const;
      expect(quoteRates({ ...envelope, grid, destination: petite })).toEqual(unavailable);
    });

    it('answers every service where the grid is complete', () => {
      const quote = quoteRates({ ...base, grid, destination: parisDest, weightGrams: 5000 });
      expect(quote.available).toBe(true);
      expect(quote.rates.map((r) => r.service)).toEqual(['economy', 'standard', 'express']);
      const envelope = quoteRates({ ...base, unitType: 'envelope', grid, destination: parisDest });
      expect(envelope.rates).toHaveLength(3);
    });

    it('does not count a service the grid does not offer at all as a hole', () => {
      const standardOnly = indexGrid([row('standard', 900)]);
      expect(quoteRates({ ...base, grid: standardOnly, destination: parisDest }).rates).toHaveLength(1);
    });
  });

  it('takes the promised dates from the clock it is given', () => {
    const grid = indexGrid(loadDefaultGrid());
    // Friday 16:00 Paris, before the 14 July weekend: standard starts Tuesday 15, delivers Wednesday 16.
    const quote = quoteRates({
      ...base,
      grid,
      destination: parisDest,
      now: new Date('2025-07-11T14:00:00Z'),
    });
    const byService = Object.fromEntries(quote.rates.map((r) => [r.service, r.promised_date]));
    expect(byService).toEqual({ express: '2025-07-15', standard: '2025-07-16', economy: '2025-07-18' });
  });
});
