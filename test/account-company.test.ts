import { writeFile } from 'node:fs/promises';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { Browser, createUser, csrfOf, PASSWORD } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestApp } from './support/app.ts';

const NOW = new Date('2026-11-24T08:00:00Z');
// A real-looking SIREN (its Luhn sum is a multiple of 10) and its French VAT number.
const SIREN = '732829320';
const VAT = 'FR44732829320';

let t: TestApp;
let ipCounter = 0;
beforeAll(async () => {
  t = await buildTestApp({ clock: () => NOW });
});
afterAll(() => t.close());

async function signedIn(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(t.deps, options);
  const b = new Browser(t.app, `10.13.3.${++ipCounter}`);
  expect((await b.signIn(user.email, PASSWORD)).status).toBe(303);
  return { ...user, b };
}

const brandRow = async (brandId: string) =>
  (
    await t.pool.query(
      'SELECT legal_name, billing_address, siren, vat_number, default_pickup_address FROM brands WHERE id = $1',
      [brandId],
    )
  ).rows[0];

async function pdfText(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

const GOOD = {
  legal_name: 'Maison Lumière SARL',
  billing_address: '3 rue de Rivoli\n75004 Paris',
  siren: '732 829 320',
  vat_number: 'fr 44 732829320',
  pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
};

describe('/account/company', () => {
  it('refuses a bad SIREN, the VAT number of another SIREN and an out-of-zone pickup, storing nothing', async () => {
    const brand = await createBrandWithKey(t.deps, { company: null });
    const { b } = await signedIn({ brandId: brand.brandId });
    const csrf = csrfOf((await b.get('/account/company')).body);
    const before = await brandRow(brand.brandId);
    const res = await b.post('/account/company', {
      ...GOOD,
      _csrf: csrf,
      siren: '732 829 321',
      vat_number: 'FR96552100554',
      pickup_address: '1 place Bellecour 69002 Lyon',
    });
    expect(res.status).toBe(400);
    expect(res.body).toContain('SIREN (9 digits): is not a valid SIREN (check digit)');
    expect(res.body).toContain('id="pickup_address-error"');
    expect(res.body).toContain('must be in Île-de-France');
    expect(res.body).toContain('value="Maison Lumière SARL"'); // kept for correcting
    // The VAT number is judged against a valid SIREN only (else the SIREN's error says it all).
    const vat = await b.post('/account/company', { ...GOOD, _csrf: csrf, vat_number: 'FR96552100554' });
    expect(vat.status).toBe(400);
    expect(vat.body).toContain(`must be the SIREN&#39;s VAT number, ${VAT}`);
    const fr = await b.post('/account/company?lang=fr', {
      ...GOOD,
      _csrf: csrf,
      siren: '12345',
      vat_number: '',
    });
    expect(fr.body).toContain('SIREN (9 chiffres) : doit compter 9 chiffres');
    const orphanVat = await b.post('/account/company?lang=en', { ...GOOD, _csrf: csrf, siren: '' });
    expect(orphanVat.body).toContain('needs the SIREN it is made from');
    expect((await b.post('/account/company', { ...GOOD, _csrf: 'forged' })).status).toBe(403);
    expect(await brandRow(brand.brandId)).toEqual(before);
  });

  it("saves the details, which the invoice PDF's buyer block then prints", async () => {
    const brand = await createBrandWithKey(t.deps, { name: 'Lumière', company: null });
    await t.deps.orders.create(
      { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
      { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris' },
    );
    const draft = invoiceIdFor(brand.brandId, '2026-11');
    const beforeText = await pdfText((await t.deps.invoices.pdf(brand.brandId, draft)).pdf);
    expect(beforeText).not.toContain('SIREN : 732 829 320');

    const { b } = await signedIn({ brandId: brand.brandId });
    const csrf = csrfOf((await b.get('/account/company')).body);
    const saved = await b.post('/account/company', { ...GOOD, _csrf: csrf });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/account/company?saved=1');
    expect(await brandRow(brand.brandId)).toEqual({
      legal_name: 'Maison Lumière SARL',
      billing_address: '3 rue de Rivoli\n75004 Paris',
      siren: SIREN,
      vat_number: VAT,
      default_pickup_address: '5 rue du Dépôt 93200 Saint-Denis',
    });
    const page = await b.get('/account/company?saved=1');
    expect(page.body).toContain('value="732 829 320"');
    expect(page.body).toContain('Saved.');

    const { pdf } = await t.deps.invoices.pdf(brand.brandId, draft);
    if (process.env.KEEP_PDF) await writeFile(process.env.KEEP_PDF, pdf);
    const text = await pdfText(pdf);
    expect(text).toContain('Maison Lumière SARL');
    expect(text).toContain('3 rue de Rivoli');
    expect(text).toContain('75004 Paris');
    expect(text).toContain('SIREN : 732 829 320');
    expect(text).toContain(`TVA intracommunautaire : ${VAT}`);
    expect(text).toContain(brand.brandId);

    // Emptying a field leaves it out again.
    await b.post('/account/company', { ...GOOD, _csrf: csrf, vat_number: '' });
    expect((await brandRow(brand.brandId)).vat_number).toBeNull();
  });

  it('is read only for developers and finance (POST 403); the link is shown to every role', async () => {
    const brand = await createBrandWithKey(t.deps, { company: null });
    for (const role of ['developer', 'finance'] as const) {
      const { b } = await signedIn({ brandId: brand.brandId, role });
      const page = await b.get('/account/company');
      expect(page.status).toBe(200);
      expect(page.body).toContain('Only the account owner can change these details.');
      expect(page.body).not.toContain('action="/account/company"');
      expect(page.body).toContain(TEST_PICKUP_ADDRESS);
      expect(page.body).toContain('href="/account/company"');
      const res = await b.post('/account/company', { ...GOOD, _csrf: csrfOf(page.body) });
      expect(res.status).toBe(403);
    }
    expect((await brandRow(brand.brandId)).legal_name).toBeNull();
  });

  it('says what an e-invoice still needs, takes a SIRET, and refuses one of another company', async () => {
    const brand = await createBrandWithKey(t.deps, { company: null });
    const { b } = await signedIn({ brandId: brand.brandId });
    const page = await b.get('/account/company');
    expect(page.body).toContain('Your invoices are electronic invoices (Factur-X)');
    const csrf = csrfOf(page.body);
    const bad = await b.post('/account/company', {
      ...GOOD,
      _csrf: csrf,
      siret: '552 100 554 00013',
      billing_address: '3 rue de Rivoli, Paris',
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('must start with the SIREN 732829320');
    expect(bad.body).toContain('needs a line with the postcode and the city');
    expect((await brandRow(brand.brandId)).siren).toBeNull();
    const good = await b.post('/account/company', { ...GOOD, _csrf: csrf, siret: '732 829 320 00017' });
    expect(good.status).toBe(303);
    const after = await b.get('/account/company');
    expect(after.body).not.toContain('Your invoices are electronic invoices (Factur-X)');
    expect(after.body).toContain('value="73282932000017"');
  });
});
