import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { createOrder, VALID_ORDER } from './support/orders.ts';

/** The account area's emissions: the brand's months with their CO₂e, the statement as CSV and PDF. */
// Tuesday 24 November 2026, 10:00 in Paris.
const NOW = new Date('2026-11-24T09:00:00Z');
let t: TestApp;
let ipCounter = 0;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => NOW });
});
afterAll(() => t.close());

async function deliveredOrder(brand: TestBrand): Promise<string> {
  const res = await createOrder(t.app, brand, VALID_ORDER);
  expect(res.statusCode).toBe(200);
  const ref = res.data.order.tracking_ref as string;
  for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered']) {
    await t.deps.orders.setStatus(ref, status, null, testOperator);
  }
  return ref;
}

async function signedIn(brandId: string, role: 'owner' | 'developer' | 'finance' = 'owner') {
  const user = await createUser(t.deps, { brandId, role });
  const b = new Browser(t.app, `10.41.0.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return b;
}

describe('emissions page', () => {
  it("lists the brand's months with their CO₂e and links to the statement, for every role", async () => {
    const brand = await createBrandWithKey(t.deps);
    await deliveredOrder(brand);
    await deliveredOrder(brand);
    for (const role of ['owner', 'developer', 'finance'] as const) {
      const b = await signedIn(brand.brandId, role);
      const res = await b.get('/account/emissions');
      expect(res.status, role).toBe(200);
      expect(res.body).toContain('href="/account/emissions"');
      expect(res.body).toContain('November 2026');
      // Two orders of 476 g each (no round: Paris's default stop distance, diesel van).
      expect(res.body).toContain('0.952 kg CO₂e');
      expect(res.body).toContain('href="/account/emissions/2026-11/pdf"');
      expect(res.body).toContain('href="/account/emissions/2026-11/csv"');
    }
    const b = await signedIn(brand.brandId);
    const fr = await b.get('/account/emissions?lang=fr');
    expect(fr.body).toContain('novembre 2026');
    expect(fr.body).toContain('0,952 kg CO₂e');
  });

  it('gives the statement as CSV and PDF, the same as the API', async () => {
    const brand = await createBrandWithKey(t.deps, { name: 'Maison Carbone' });
    await deliveredOrder(brand);
    const b = await signedIn(brand.brandId, 'developer');
    const csv = await b.get('/account/emissions/2026-11/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="emissions-2026-11.csv"');
    const statement = await t.deps.emissions.statement(brand.brandId, '2026-11');
    expect(statement.totals.grams).toBe(476);
    expect(csv.body).toContain('2026-11,total,,1,1,1500,476,');
    const api = await call(t.app, {
      method: 'GET',
      url: `${API}/emissions?period=2026-11&format=csv`,
      headers: brand.headers,
    });
    expect(csv.body).toBe(api.body);
    const pdf = await b.get('/account/emissions/2026-11/pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.body.startsWith('%PDF-')).toBe(true);
    const bad = await b.get('/account/emissions/2026-13/csv');
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
  });

  it("never shows another brand's months or figures", async () => {
    const other = await createBrandWithKey(t.deps);
    await deliveredOrder(other);
    const mine = await createBrandWithKey(t.deps);
    const b = await signedIn(mine.brandId);
    const res = await b.get('/account/emissions');
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('November 2026');
    expect(res.body).toContain('No order delivered yet');
    // The statement is the signed-in person's brand's: empty, not the other's 476 g.
    const csv = await b.get('/account/emissions/2026-11/csv');
    expect(csv.status).toBe(200);
    expect(csv.body).not.toContain('van');
    expect(csv.body).toContain('2026-11,total,,0,0,0,0,');
  });

  it("shows a delivered order's CO₂e on its page, and none before", async () => {
    const brand = await createBrandWithKey(t.deps);
    const pending = (await createOrder(t.app, brand, VALID_ORDER)).data.order.tracking_ref as string;
    const ref = await deliveredOrder(brand);
    const b = await signedIn(brand.brandId);
    const delivered = await b.get(`/account/orders/${ref}`);
    expect(delivered.status).toBe(200);
    expect(delivered.body).toContain('CO₂e of the transport');
    expect(delivered.body).toContain('0.476 kg CO₂e');
    const before = await b.get(`/account/orders/${pending}`);
    expect(before.body).not.toContain('CO₂e of the transport');
  });
});
