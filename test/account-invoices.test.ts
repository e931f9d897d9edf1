import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

/** The account area's invoices: list, one with its lines, the PDF; every role; never another brand's. */
// Issuing invoices concerns every brand of a database: this file has a database of its own.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let now = new Date('2026-10-10T09:00:00Z');
let ipCounter = 0;
let brandId: string;
const refs: string[] = [];

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url }, clock: () => now });
  brandId = (await createBrandWithKey(t.deps, { name: 'Maison Facture' })).brandId;
  for (const day of [2, 3, 4]) {
    now = new Date(Date.UTC(2026, 9, day, 9));
    const order = await t.deps.orders.create(
      { id: brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
      { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris' },
    );
    refs.push(order.trackingRef);
  }
  now = new Date('2026-11-01T08:00:00Z');
  await t.deps.invoices.issueDue();
  // Cancelled after October was invoiced: a credit note gives its price back.
  await t.deps.orders.cancel(brandId, refs[0]!);
});
afterAll(async () => {
  await t.close();
  await scratch.drop();
});

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.deps, options);
  const b = new Browser(t.app, `10.4.0.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const october = () => invoiceIdFor(brandId, '2026-10');

describe('invoices', () => {
  it('lists invoices, credit notes and the running draft with their totals, for every role', async () => {
    for (const role of ['owner', 'developer', 'finance'] as const) {
      const { b } = await signedIn({ brandId, role });
      const res = await b.get('/account/invoices');
      expect(res.status, role).toBe(200);
      expect(res.body).toContain('href="/account/invoices"');
      expect(res.body).toContain('F2026-000001');
      expect(res.body).toContain('A2026-000001');
      expect(res.body).toContain('Credit note');
      expect(res.body).toContain('October 2026');
      expect(res.body).toContain('November 2026');
      expect(res.body).toContain('not numbered yet');
      expect(res.body).toMatch(/badge-invoice-issued/);
    }
  });

  it('shows one invoice with its lines, and the credit note with the invoice it corrects', async () => {
    const { b } = await signedIn({ brandId, role: 'finance' });
    const { invoice } = await t.deps.invoices.get(brandId, october());
    const res = await b.get(`/account/invoices/${october()}`);
    expect(res.status).toBe(200);
    for (const ref of refs) expect(res.body).toContain(ref);
    expect(res.body).toContain(`€${(invoice.totalCents / 100).toFixed(2)}`);
    expect(res.body).toContain(`€${(invoice.totalExclTaxCents / 100).toFixed(2)}`);
    expect(res.body).toContain(`href="/account/invoices/${october()}/pdf"`);
    const list = await t.deps.invoices.list(brandId, { type: 'credit_note' });
    const credit = await b.get(`/account/invoices/${list.invoices[0]!.id}`);
    expect(credit.status).toBe(200);
    expect(credit.body).toContain('Corrects invoice F2026-000001.');
    const fr = await b.get(`/account/invoices/${october()}?lang=fr`);
    expect(fr.body).toContain('Total TTC');
    expect(fr.body).toContain('octobre 2026');
  });

  it('downloads the PDF as an attachment named after its number', async () => {
    const { b } = await signedIn({ brandId, role: 'finance' });
    const res = await t.app.inject({
      url: `/account/invoices/${october()}/pdf`,
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="F2026-000001.pdf"');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const draft = await b.get(`/account/invoices/${invoiceIdFor(brandId, '2026-11')}/pdf`);
    expect(draft.headers['content-disposition']).toBe('attachment; filename="draft-2026-11.pdf"');
  });

  it('is the 404 page for another brand’s invoice, its PDF, and an unknown id', async () => {
    const { b } = await signedIn();
    for (const url of [
      `/account/invoices/${october()}`,
      `/account/invoices/${october()}/pdf`,
      '/account/invoices/inv_0000000000000000',
      '/account/invoices/nonsense/pdf',
    ]) {
      const res = await b.get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('This page does not exist.');
    }
    expect((await b.get('/account/invoices')).body).not.toContain('F2026-000001');
  });

  it('sends a signed-out visitor to the sign-in page', async () => {
    const res = await t.app.inject({ url: `/account/invoices/${october()}/pdf` });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/sign-in');
  });
});
