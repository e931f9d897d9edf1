import { describe, expect, it } from 'vitest';
import { loadDefaultGrid } from '../pricing/default-grid.ts';
import { type GridRow, indexGrid } from '../pricing/grid.ts';
import type { ActiveGrid, GridService } from '../pricing/grid-service.ts';
import { rateService } from './rate-service.ts';

/** A grid service serving one grid, which a test can replace as an import would. */
function fakeGrids(rows: readonly GridRow[]) {
  let grid: ActiveGrid = { source: 'shipped_default', rows, index: indexGrid(rows), importedAt: null };
  return {
    service: { gridFor: async () => grid } as unknown as GridService,
    replace(next: readonly GridRow[]) {
      grid = { source: 'negotiated', rows: next, index: indexGrid(next), importedAt: new Date() };
    },
  };
}

const REQUEST = { delivery_zip: '75011', unit_type: 'parcel', unit_weight: '2kg', quantity: 2 };

describe('rate service quote cache', () => {
  it('answers the same question within a minute with the same frozen quote', async () => {
    const grids = fakeGrids(loadDefaultGrid());
    const rates = rateService(grids.service, () => new Date('2026-11-23T09:00:10Z'));
    const first = await rates.quote('brd_a', REQUEST);
    const again = await rates.quote('brd_b', { ...REQUEST, delivery_zip: '75012' }); // same zone, same grid
    expect(again).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.rates) && Object.isFrozen(first.rates[0])).toBe(
      true,
    );
    expect(await rates.quote('brd_a', { ...REQUEST, quantity: 3 })).not.toBe(first);
  });

  it('moves promised dates when the minute passes a cut-off', async () => {
    let now = new Date('2026-11-23T10:59:30Z'); // 11:59:30 in Paris, a Monday: express still today
    const rates = rateService(fakeGrids(loadDefaultGrid()).service, () => now);
    const express = async () =>
      (await rates.quote('brd_a', REQUEST)).rates.find((r) => r.service === 'express');
    expect((await express())?.promised_date).toBe('2026-11-23');
    now = new Date('2026-11-23T11:00:00Z'); // 12:00 in Paris: the cut-off has struck
    expect((await express())?.promised_date).toBe('2026-11-24');
  });

  it('prices from a newly imported grid at once', async () => {
    const grids = fakeGrids(loadDefaultGrid());
    const rates = rateService(grids.service, () => new Date('2026-11-23T09:00:00Z'));
    const before = await rates.quote('brd_a', REQUEST);
    grids.replace(loadDefaultGrid().map((row) => ({ ...row, firstUnitCents: row.firstUnitCents + 100 })));
    const after = await rates.quote('brd_a', REQUEST);
    expect(after.rates[0]!.price_excl_tax_eur).toBeGreaterThan(before.rates[0]!.price_excl_tax_eur);
  });

  it('answers a question asked again from memory, never an invalid one', async () => {
    const rows = loadDefaultGrid();
    const grid: ActiveGrid = { source: 'shipped_default', rows, index: indexGrid(rows), importedAt: null };
    // A grid held in memory, as the service keeps it: the quote comes back without a promise.
    const rates = rateService(
      { gridFor: () => grid } as unknown as GridService,
      () => new Date('2026-11-23T09:00:10Z'),
    );
    const first = rates.quote('brd_a', REQUEST);
    expect(first).not.toBeInstanceOf(Promise);
    expect(rates.quote('brd_a', { ...REQUEST })).toBe(first);
    expect(() => rates.quote('brd_a', { ...REQUEST, quantity: 0 })).toThrow(/quantity/);
    const byAddress = { delivery_address: '12 rue Oberkampf 75011 Paris', unit_weight: '2kg' };
    expect(rates.quote('brd_a', byAddress)).toMatchObject({ available: true });
  });

  it('answers out of zone without waiting for a grid', async () => {
    const rates = rateService(
      { gridFor: () => new Promise(() => {}) } as unknown as GridService,
      () => new Date('2026-11-23T09:00:10Z'),
    );
    expect(await rates.quote('brd_a', { ...REQUEST, delivery_zip: '13001' })).toMatchObject({
      available: false,
      reason: 'out_of_zone',
    });
  });
});
