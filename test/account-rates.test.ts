import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { API, buildTestApp, type TestApp } from './support/app.ts';
import { testOperator } from './support/audit.ts';

// Tuesday 24 November 2026, 09:00 in Paris: before every cut-off, so promised dates are fixed.
const TUESDAY_9AM = new Date('2026-11-24T08:00:00Z');

let t: TestApp;
let ipCounter = 0;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => TUESDAY_9AM });
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.deps, options);
  const b = new Browser(t.app, `10.13.1.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  const key = await t.deps.apiKeys.create({ brandId: user.brandId, scopes: ['orders:read'] }, testOperator);
  return { ...user, b, headers: { authorization: `Bearer ${key.key}` } };
}

/** The rates table of the page, read back into the API's shape. */
function ratesOnPage(body: string) {
  const rows = [
    ...body.matchAll(
      /<tr data-service="(\w+)">[\s\S]*?<data value="([\d.]+)">[\s\S]*?<data value="([\d.]+)">[\s\S]*?<time datetime="([\d-]+)">/g,
    ),
  ];
  return rows.map(([, service, incl, excl, date]) => ({
    service,
    price_eur: Number(incl),
    price_excl_tax_eur: Number(excl),
    promised_date: date,
  }));
}

const apiRates = async (headers: Record<string, string>, payload: object) => {
  const res = await t.app.inject({ method: 'POST', url: `${API}/rates`, headers, payload });
  expect(res.statusCode).toBe(200);
  return res.json() as { available: boolean; rates: Record<string, unknown>[] };
};

const pick = (rates: Record<string, unknown>[]) =>
  rates.map(({ service, price_eur, price_excl_tax_eur, promised_date }) => ({
    service,
    price_eur,
    price_excl_tax_eur,
    promised_date,
  }));

describe('/account/rates', () => {
  it('shows what POST /rates answers the brand, with its negotiated grid', async () => {
    const { b, brandId, headers } = await signedIn({ role: 'finance' });
    const csv = await readFile(new URL('../data/example-grid.csv', import.meta.url), 'utf8');
    await t.deps.grids.importGrid({ brandId }, csv, 'csv', null, testOperator);
    const cases: [string, object][] = [
      ['to=75011&unit_weight=2kg&quantity=3', { delivery_zip: '75011', unit_weight: '2kg', quantity: 3 }],
      [
        `to=${encodeURIComponent('3 rue de la Paix 92100 Boulogne-Billancourt')}&unit_type=parcel`,
        { delivery_address: '3 rue de la Paix 92100 Boulogne-Billancourt', unit_type: 'parcel' },
      ],
    ];
    for (const [queryString, payload] of cases) {
      const page = await b.get(`/account/rates?${queryString}`);
      expect(page.status).toBe(200);
      const api = await apiRates(headers, payload);
      expect(api.available).toBe(true);
      expect(ratesOnPage(page.body)).toEqual(pick(api.rates));
      expect(ratesOnPage(page.body).length).toBeGreaterThan(0);
    }
    // The brand's grid, not the default one: the same question from another brand differs.
    const other = await signedIn();
    const page = await other.b.get('/account/rates?to=75011&unit_weight=2kg&quantity=3');
    expect(ratesOnPage(page.body)).toEqual(
      pick((await apiRates(other.headers, { delivery_zip: '75011', unit_weight: '2kg', quantity: 3 })).rates),
    );
    expect(ratesOnPage(page.body)).not.toEqual(
      ratesOnPage((await b.get('/account/rates?to=75011&unit_weight=2kg&quantity=3')).body),
    );
  });

  it('says why nothing is available: out of zone, unknown postcode, incomplete grid', async () => {
    const { b, brandId, headers } = await signedIn();
    const csv = await readFile(new URL('../data/example-grid.csv', import.meta.url), 'utf8');
    await t.deps.grids.importGrid({ brandId }, csv, 'csv', null, testOperator);
    const outOfZone = await b.get('/account/rates?to=69001');
    expect(outOfZone.status).toBe(200);
    expect(outOfZone.body).toContain('data-available="false"');
    expect(outOfZone.body).toMatch(/69001 Lyon.*outside the delivery zone/);
    expect((await apiRates(headers, { delivery_zip: '69001' })).available).toBe(false);
    expect((await b.get('/account/rates?to=00000')).body).toContain('no known French postcode');
    const envelope = await b.get('/account/rates?to=75011&unit_type=envelope');
    expect(envelope.body).toContain('your price grid has no price');
    expect((await apiRates(headers, { delivery_zip: '75011', unit_type: 'envelope' })).available).toBe(false);
    const fr = await b.get('/account/rates?to=69001&lang=fr');
    expect(fr.body).toContain('hors de la zone de livraison');
  });

  it('shows each mistake next to its field (400), in English and French; the blank form shows no result', async () => {
    const { b } = await signedIn({ role: 'developer' });
    const blank = await b.get('/account/rates');
    expect(blank.status).toBe(200);
    expect(blank.body).not.toContain('data-available');
    expect(blank.body).toContain('href="/account/rates"');
    const bad = await b.get('/account/rates?to=&unit_type=crate&unit_weight=heavy&quantity=0');
    expect(bad.status).toBe(400);
    for (const field of ['to', 'unit_type', 'unit_weight', 'quantity']) {
      expect(bad.body).toContain(`<p class="field-error" id="${field}-error">`);
      expect(bad.body).toContain(`aria-describedby="${field}-error"`);
    }
    expect(bad.body).toContain('Quantity: must be an integer from 1 to 1000');
    expect(bad.body).toContain('value="heavy"'); // what was typed stays in the form
    const fr = await b.get('/account/rates?to=75011&quantity=2.5&lang=fr');
    expect(fr.status).toBe(400);
    expect(fr.body).toContain('Quantité : doit être un entier de 1 à 1000');
  });
});
