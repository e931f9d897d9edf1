import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';

// Tuesday 24 November 2026, 09:00 in Paris: before every cut-off, on a business day.
const TUESDAY_9AM = new Date('2026-11-24T08:00:00Z');

let t: TestApp;
let brand: TestBrand;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => TUESDAY_9AM });
  brand = await createBrandWithKey(t.deps, { scopes: ['invoices:read'] }); // any valid key may quote
});
afterAll(() => t.close());

const rates = (b: TestBrand, payload: unknown) =>
  call(t.app, { method: 'POST', url: `${API}/rates`, headers: b.headers, payload: payload as object });

describe('POST /rates with the default grid', () => {
  it('lists every service cheapest first with prices and promised dates', async () => {
    const res = await rates(brand, { delivery_zip: '75011' });
    expect(res.statusCode).toBe(200);
    expect(res.data.ok).toBe(true);
    expect(res.data.available).toBe(true);
    expect(res.data.rates.map((r: { service: string }) => r.service)).toEqual([
      'economy',
      'standard',
      'express',
    ]);
    const prices = res.data.rates.map((r: { price_eur: number }) => r.price_eur);
    expect([...prices].sort((a, b) => a - b)).toEqual(prices);
    const byService = Object.fromEntries(res.data.rates.map((r: { service: string }) => [r.service, r]));
    expect(byService.express).toMatchObject({
      delay_business_days: 0,
      promised_date: '2026-11-24',
      currency: 'EUR',
      vat_rate: 0.2,
    });
    expect(byService.standard).toMatchObject({ delay_business_days: 1, promised_date: '2026-11-25' });
    expect(byService.economy).toMatchObject({ delay_business_days: 3, promised_date: '2026-11-27' });
    for (const r of res.data.rates) {
      expect(Math.round(r.price_eur * 100)).toBe(
        Math.round(r.price_excl_tax_eur * 100) +
          Math.floor((Math.round(r.price_excl_tax_eur * 100) * 20 + 50) / 100),
      );
    }
  });

  it('takes the postcode from the address, and delivery_zip wins when both are given', async () => {
    const fromAddress = await rates(brand, { delivery_address: '8 rue de la Gare, 93200 Saint-Denis' });
    const fromZip = await rates(brand, { delivery_zip: '93200' });
    expect(fromAddress.data).toEqual(fromZip.data);
    const both = await rates(brand, {
      delivery_zip: '75011',
      delivery_address: '8 rue de la Gare 93200 Saint-Denis',
    });
    expect(both.data).toEqual((await rates(brand, { delivery_zip: '75011' })).data);
    // Postcodes written the French way, with a space after the département.
    const zip = (await rates(brand, { delivery_zip: '75011' })).data;
    expect((await rates(brand, { delivery_zip: '75 011' })).data).toEqual(zip);
    expect((await rates(brand, { delivery_zip: '75\u00a0011' })).data).toEqual(zip);
    expect((await rates(brand, { delivery_address: '12 rue Oberkampf, 75 011 Paris' })).data).toEqual(zip);
    const paris = (await rates(brand, { delivery_zip: '75011' })).data.rates[0].price_eur;
    const grandeCouronne = (await rates(brand, { delivery_zip: '78000' })).data.rates[0].price_eur;
    expect(grandeCouronne).toBeGreaterThan(paris);
  });

  it('answers available:false with no rates and the reason: out of zone, or an unknown postcode', async () => {
    for (const [payload, reason] of [
      [{ delivery_zip: '69001' }, 'out_of_zone'],
      [{ delivery_address: '1 place Bellecour, 69002 Lyon' }, 'out_of_zone'],
      [{ delivery_zip: '75099' }, 'unknown_postcode'],
      [{ delivery_zip: '7501' }, 'unknown_postcode'],
      [{ delivery_address: 'Paris' }, 'unknown_postcode'],
    ] as const) {
      const res = await rates(brand, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
      expect(res.data, JSON.stringify(payload)).toEqual({ ok: true, available: false, rates: [], reason });
    }
    // Available: no reason at all (absent, not null).
    expect(Object.keys((await rates(brand, { delivery_zip: '75011' })).data)).toEqual([
      'ok',
      'available',
      'rates',
    ]);
  });

  it('accepts unit aliases and weight spellings, and prices quantity', async () => {
    const base = await rates(brand, { delivery_zip: '75011', unit_type: 'parcel', unit_weight: '2.5kg' });
    for (const variant of [
      { unit_type: 'COLIS', unit_weight: '2,5 kg' },
      { unit_type: 'Parcel', unit_weight: '2500 g' },
      { unit_weight: 2.5 },
    ]) {
      expect((await rates(brand, { delivery_zip: '75011', ...variant })).data).toEqual(base.data);
    }
    const one = (await rates(brand, { delivery_zip: '75011', quantity: 1 })).data.rates[0];
    const three = (await rates(brand, { delivery_zip: '75011', quantity: 3 })).data.rates[0];
    expect(three.price_excl_tax_eur).toBeGreaterThan(one.price_excl_tax_eur);
  });

  it('rejects bad inputs with 400 and names each field', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['delivery_zip']],
      [{ unit_type: 'parcel' }, ['delivery_zip']],
      [{ delivery_zip: '75011', unit_type: 'spaceship' }, ['unit_type']],
      [{ delivery_zip: '75011', unit_weight: 'heavy' }, ['unit_weight']],
      [{ delivery_zip: '75011', unit_weight: '-1kg' }, ['unit_weight']],
      [{ delivery_zip: '75011', unit_weight: '0' }, ['unit_weight']],
      [{ delivery_zip: '75011', quantity: 0 }, ['quantity']],
      [{ delivery_zip: '75011', quantity: 1.5 }, ['quantity']],
      [{ delivery_zip: '75011', quantity: '2' }, ['quantity']],
      [{ delivery_zip: 75011 }, ['delivery_zip']],
      [{ delivery_zip: '75011', colour: 'red' }, ['colour']],
      [{ unit_type: 'x', unit_weight: 'y' }, ['delivery_zip', 'unit_type', 'unit_weight']],
    ];
    for (const [payload, fields] of cases) {
      const res = await rates(brand, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.data.error).toBe('invalid_request');
      expect(res.data.details.map((d: { field: string }) => d.field).sort(), JSON.stringify(payload)).toEqual(
        fields,
      );
    }
  });

  it('makes no database query per request once warm', async () => {
    await rates(brand, { delivery_zip: '75011' });
    let acquired = 0;
    const count = () => {
      acquired++;
    };
    t.pool.on('acquire', count);
    for (let i = 0; i < 50; i++) expect((await rates(brand, { delivery_zip: '92100' })).statusCode).toBe(200);
    t.pool.off('acquire', count);
    expect(acquired).toBeLessThanOrEqual(1); // at most the background check for grid changes
  });
});

describe('POST /rates with a negotiated grid', () => {
  it('prices from the brand grid, and a combination the grid lacks is unavailable', async () => {
    const negotiated = await createBrandWithKey(t.deps);
    const csv = await readFile(new URL('../data/example-grid.csv', import.meta.url), 'utf8');
    await t.deps.grids.importGrid(
      { brandId: negotiated.brandId },
      csv,
      'csv',
      'example-grid.csv',
      testOperator,
    );

    const res = await rates(negotiated, { delivery_zip: '75011', unit_weight: '2kg', quantity: 3 });
    expect(res.data.rates.map((r: { service: string }) => r.service)).toEqual(['economy', 'standard']);
    // standard, paris, parcel ≤ 2 kg: 7.20 + 2 × 3.00 = 13.20 excl. tax; VAT 2.64; 15.84 incl. tax.
    expect(res.data.rates[1]).toMatchObject({ price_excl_tax_eur: 13.2, price_eur: 15.84 });

    const envelope = await rates(negotiated, { delivery_zip: '75011', unit_type: 'envelope' });
    expect(envelope.data).toEqual({ ok: true, available: false, rates: [], reason: 'incomplete_grid' });
    const tooHeavy = await rates(negotiated, { delivery_zip: '75011', unit_weight: '31kg' });
    expect(tooHeavy.data).toMatchObject({ available: false, reason: 'incomplete_grid' });

    // Another brand still gets the default grid.
    expect((await rates(brand, { delivery_zip: '75011', unit_type: 'envelope' })).data.available).toBe(true);
  });

  it('answers available:false, still 200, where the grid is incomplete; orders stay priced per service', async () => {
    const b = await createBrandWithKey(t.deps);
    const complete = (await rates(b, { delivery_zip: '78000' })).data; // cached for the minute
    expect(complete.rates).toHaveLength(3);
    // Express does not go to the grande couronne, nor beyond 5 kg anywhere.
    const csv = [
      'service,zone,unit_type,max_weight_kg,first_unit_eur,extra_unit_eur',
      ...['paris', 'petite_couronne', 'grande_couronne'].flatMap((zone) => [
        `standard,${zone},parcel,30,9.00,4.00`,
        `economy,${zone},parcel,30,7.00,3.00`,
      ]),
      'express,paris,parcel,5,15.00,6.00',
      'express,petite_couronne,parcel,5,16.00,6.00',
    ].join('\n');
    await t.deps.grids.importGrid({ brandId: b.brandId }, csv, 'csv', null, testOperator);

    for (const payload of [
      { delivery_zip: '78000' },
      { delivery_address: '1 rue de la Paroisse 78000 Versailles' },
      { delivery_zip: '75011', unit_weight: '6kg' },
    ]) {
      const res = await rates(b, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(200);
      expect(res.data, JSON.stringify(payload)).toEqual({
        ok: true,
        available: false,
        rates: [],
        reason: 'incomplete_grid',
      });
    }
    const paris = await rates(b, { delivery_zip: '75011', unit_weight: '5kg' });
    expect(paris.data.rates.map((r: { service: string }) => r.service)).toEqual([
      'economy',
      'standard',
      'express',
    ]);

    const order = (body: object) =>
      call(t.app, {
        method: 'POST',
        url: `${API}/orders`,
        headers: b.headers,
        payload: {
          customer_email: 'a@example.com',
          delivery_address: '1 rue de la Paroisse 78000 Versailles',
          ...body,
        },
      });
    expect((await order({ service: 'standard' })).statusCode).toBe(200);
    const express = await order({ service: 'express' });
    expect(express.statusCode).toBe(422);
    expect(express.data.error).toBe('unpriceable');
    expect(express.data.message).toMatch(/express parcel to grande_couronne/);
  });

  it('sees a grid imported by another instance within 5 seconds', async () => {
    const b = await createBrandWithKey(t.deps);
    const before = await rates(b, { delivery_zip: '75011' });
    expect(before.data.rates).toHaveLength(3);
    const other = await buildTestApp(); // another instance on the same database
    try {
      const csv = await readFile(new URL('../data/example-grid.csv', import.meta.url), 'utf8');
      await other.deps.grids.importGrid({ brandId: b.brandId }, csv, 'csv', null, testOperator);
      const started = Date.now();
      let count = 3;
      while (count === 3 && Date.now() - started < 6000) {
        count = (await rates(b, { delivery_zip: '75011' })).data.rates.length;
        if (count === 3) await new Promise((r) => setTimeout(r, 100));
      }
      expect(count).toBe(2);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await other.close();
    }
  });
});
