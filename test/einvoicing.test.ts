import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { formatEurosFr } from '../src/domain/invoices/format-fr.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { Browser, createUser, PASSWORD } from './support/account-browser.ts';
import {
  API,
  buildTestApp,
  call,
  createBrandWithKey,
  TEST_COMPANY,
  type TestApp,
  type TestBrand,
} from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { fatalRules, schematronFailures, XMLLINT, xsdErrors } from './support/einvoicing-validation.ts';
import { subscribeToWebhooks } from './support/orders.ts';
import { facturXStructure } from './support/pdfa-structure.ts';
import { runDlv } from './support/run-cli.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

// Issuing concerns every brand of a database: this file has a database of its own.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let now = new Date('2026-10-02T09:00:00Z');
const einvoiceDir = mkdtempSync(path.join(os.tmpdir(), 'dlv-einvoices-'));
const OPS = { authorization: 'Bearer ops-secret-token-0123456789abcdef' };

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({
    config: {
      databaseUrl: scratch.url,
      opsToken: 'ops-secret-token-0123456789abcdef',
      einvoicing: { vatOnDebits: false, platform: { kind: 'directory', dir: einvoiceDir } },
    },
    clock: () => now,
  });
});
afterAll(async () => {
  await t.close();
  await scratch.drop();
});

async function orderAt(brand: TestBrand, at: string, service: string): Promise<string> {
  now = new Date(at);
  const result = await t.deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: '5 rue du Dépôt 93200 Saint-Denis' },
    { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris', service },
  );
  return result.trackingRef;
}

const pdfText = async (pdf: Buffer) => (await new PDFParse({ data: new Uint8Array(pdf) }).getText()).text;

/** The CII's values by element name (first occurrence), read as a consumer would. */
function ciiValues(xml: string) {
  const root = create(xml).node as unknown as {
    getElementsByTagNameNS(ns: string, name: string): ArrayLike<{ textContent: string | null }>;
  };
  const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
  const all = (name: string) =>
    Array.from(root.getElementsByTagNameNS(RAM, name), (n) => n.textContent?.trim() ?? '');
  // The header's amounts come after the lines' (a line has its own LineTotalAmount): the last one.
  const cents = (name: string) => Math.round(Number(all(name).at(-1)) * 100);
  return {
    all,
    typeCode: all('TypeCode')[0],
    lineTotal: cents('LineTotalAmount'),
    taxBasis: cents('TaxBasisTotalAmount'),
    vat: cents('TaxTotalAmount'),
    grandTotal: cents('GrandTotalAmount'),
    due: cents('DuePayableAmount'),
  };
}

async function deliver(trackingRef: string) {
  for (const status of ['picked_up', 'in_transit', 'out_for_delivery', 'delivered'])
    await t.deps.orders.setStatus(trackingRef, status, null, testOperator);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('a month with deliveries, a credit note and a paid invoice, as Factur-X', () => {
  let brand: TestBrand;
  let invoiceId: string;
  let creditNoteId: string;
  let draftPdfText: string;

  beforeAll(async () => {
    brand = await createBrandWithKey(t.deps, {
      name: 'Maison Lumière',
      company: { ...TEST_COMPANY, legalName: 'Maison Lumière & Fils SARL' },
    });
    await t.deps.brands.updateCompany(
      brand.brandId,
      {
        ...TEST_COMPANY,
        legalName: 'Maison Lumière & Fils SARL',
        siret: '73282932000017',
        pickupAddress: '5 rue du Dépôt 93200 Saint-Denis',
      },
      testOperator,
    );
    await subscribeToWebhooks(t.pool, brand.brandId);
    // Two delivered in the month: their CO₂e goes on their lines and in the document's note.
    await deliver(await orderAt(brand, '2026-10-03T08:00:00Z', 'express'));
    await deliver(await orderAt(brand, '2026-10-09T15:30:00Z', 'standard'));
    const cancelled = await orderAt(brand, '2026-10-20T22:45:00Z', 'economy');
    await orderAt(brand, '2026-10-31T22:59:00Z', 'standard'); // 23:59 in Paris: still October
    now = new Date('2026-10-31T22:59:30Z'); // still October in Paris
    const drafts = await call(t.app, { method: 'GET', url: `${API}/invoices`, headers: brand.headers });
    const draft = drafts.data.invoices.find((i: { status: string }) => i.status === 'draft');
    draftPdfText = oneLine(await pdfText((await t.deps.invoices.pdf(brand.brandId, draft.id)).pdf));
    now = new Date('2026-11-01T00:05:00Z');
    const { issued } = await t.deps.invoices.issueMonth('2026-10', testOperator);
    invoiceId = issued.find((i) => i.brandId === brand.brandId)!.id;
    // Still pending in November: cancelled after its invoice, so credited.
    now = new Date('2026-11-04T10:00:00Z');
    const res = await call(t.app, {
      method: 'POST',
      url: `${API}/orders/${cancelled}/cancel`,
      headers: brand.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const list = await call(t.app, {
      method: 'GET',
      url: `${API}/invoices?type=credit_note`,
      headers: brand.headers,
    });
    creditNoteId = list.data.invoices[0].id;
    now = new Date('2026-11-20T10:00:00Z');
    await t.deps.invoices.markPaid(invoiceId, testOperator);
  });

  it('queues every issued document for the platform, in its issuing transaction', async () => {
    const { rows } = await t.pool.query(
      `SELECT payload->>'document_id' AS id FROM ${QUEUED_JOBS} j WHERE task = 'einvoice_submit' AND payload->>'document_id' = ANY($1)`,
      [[invoiceId, creditNoteId]],
    );
    expect(rows.map((r) => r.id).sort()).toEqual([invoiceId, creditNoteId].sort());
    const { rows: payments } = await t.pool.query(
      `SELECT 1 FROM ${QUEUED_JOBS} j WHERE task = 'einvoice_report_payment' AND payload->>'invoice_id' = $1`,
      [invoiceId],
    );
    expect(payments).toHaveLength(1);
  });

  for (const kind of ['invoice', 'credit note'] as const) {
    it(`makes the ${kind} a Factur-X that passes the XSD, the EN 16931 Schematron and the PDF/A-3 check, its totals the API's and the PDF's`, async () => {
      const id = kind === 'invoice' ? invoiceId : creditNoteId;
      const api = await call(t.app, { method: 'GET', url: `${API}/invoices/${id}`, headers: brand.headers });
      expect(api.statusCode).toBe(200);
      const pdf = (await t.deps.invoices.pdf(brand.brandId, id)).pdf;

      const { problems, xml } = await facturXStructure(pdf);
      expect(problems).toEqual([]);
      expect(xml).not.toBeNull();
      if (XMLLINT) expect(await xsdErrors(xml!)).toEqual([]);
      expect(await schematronFailures(xml!)).toEqual([]);

      const cii = ciiValues(xml!);
      expect(cii.typeCode).toBe(kind === 'invoice' ? '380' : '381');
      // A credit note's amounts are positive in the XML (381 says it credits), negative in the API.
      const sign = kind === 'invoice' ? 1 : -1;
      const invoice = api.data.invoice;
      expect(sign * cii.taxBasis).toBe(Math.round(invoice.total_excl_tax_eur * 100));
      expect(sign * cii.lineTotal).toBe(Math.round(invoice.total_excl_tax_eur * 100));
      expect(sign * cii.vat).toBe(Math.round(invoice.vat_eur * 100));
      expect(sign * cii.grandTotal).toBe(Math.round(invoice.total_eur * 100));
      expect(sign * cii.due).toBe(Math.round(invoice.total_eur * 100));
      expect(cii.all('IncludedSupplyChainTradeLineItem')).toHaveLength(invoice.lines.length);
      // The PDF prints what the XML says.
      const text = await pdfText(pdf);
      expect(text).toContain(`Total HT ${formatEurosFr(sign * cii.taxBasis)}`);
      expect(text).toContain(`TVA 20 % ${formatEurosFr(sign * cii.vat)}`);
      expect(text).toContain(`Total TTC ${formatEurosFr(sign * cii.grandTotal)}`);
      // The document's notes word for word (the lines' CO₂e notes are the table's CO₂e column).
      for (const note of cii.all('Content').filter((c) => !c.startsWith('CO₂e du transport :')))
        expect(oneLine(text)).toContain(note);
      // The French mentions: the buyer's SIREN and SIRET, services, VAT due when paid, the deliver-to address.
      expect(cii.all('ID')).toEqual(expect.arrayContaining(['732829320', 'S1', 'urn:cen.eu:en16931:2017']));
      expect(cii.all('GlobalID')).toContain('73282932000017');
      expect(cii.all('DueDateTypeCode')).toEqual(['72']);
      expect(cii.all('CityName')).toContain('Saint-Denis');
      expect(text).toContain('SIRET : 73282932000017');
      expect(text).toContain('Lieu de prise en charge : 5 rue du Dépôt, 93200 Saint-Denis');
      expect(text).toContain('Maison Lumière & Fils SARL');
      if (kind === 'credit note')
        expect(cii.all('IssuerAssignedID')).toContain(api.data.invoice.credits_invoice.number);

      // CO₂e (Code des transports L1431-3): each delivered line's grams as its note (BT-127), their
      // sum as a document note (AAI), the PDF's column and total saying the same grams.
      const delivered = invoice.lines.filter((l: { co2e_grams: number | null }) => l.co2e_grams !== null);
      const grams = (n: number) => `${String(n).replace(/\B(?=(\d{3})+$)/g, ' ')} g CO₂e`;
      if (kind === 'invoice') {
        expect(delivered).toHaveLength(2);
        expect(invoice.co2e_grams).toBe(
          delivered.reduce((sum: number, l: { co2e_grams: number }) => sum + l.co2e_grams, 0),
        );
        const documentNote = cii.all('Content').find((c) => c.startsWith('Information GES'));
        expect(documentNote).toContain(`${grams(invoice.co2e_grams)} (grammes d'équivalent CO₂)`);
        const lineNotes = cii.all('Content').filter((c) => c.startsWith('CO₂e du transport'));
        expect(lineNotes.sort()).toEqual(
          delivered.map((l: { co2e_grams: number }) => `CO₂e du transport : ${grams(l.co2e_grams)}`).sort(),
        );
        for (const line of delivered) {
          const figure = grams(line.co2e_grams).replace(' g CO₂e', '');
          expect(oneLine(text)).toMatch(new RegExp(`${line.tracking_ref} \\S+ \\S+ ${figure} \\d`));
        }
        expect(oneLine(text)).toContain(`CO₂e du transport ${grams(invoice.co2e_grams)}`);
        expect(oneLine(text)).toContain('CO₂e (g)');
        // The draft printed before issuing says the same (its column, its total, its note).
        expect(draftPdfText).toContain(`CO₂e du transport ${grams(invoice.co2e_grams)}`);
        expect(draftPdfText).toContain(documentNote!);
      } else {
        // Its one line is a cancelled order: no transport, no CO₂e note.
        expect(delivered).toHaveLength(0);
        expect(cii.all('Content').some((c) => c.includes('CO₂e'))).toBe(false);
      }
    }, 120_000);
  }

  it('is checked by rules that can fail: a total that does not add up breaks BR-CO-15', async () => {
    const pdf = (await t.deps.invoices.pdf(brand.brandId, invoiceId)).pdf;
    const { xml } = await facturXStructure(pdf);
    const broken = xml!.replace(/<ram:GrandTotalAmount>([\d.]+)</, '<ram:GrandTotalAmount>1.00<');
    expect((await fatalRules(broken)).map((r) => r.id)).toContain('BR-CO-15');
    if (XMLLINT)
      expect(await xsdErrors(xml!.replace('<ram:TypeCode>380', '<ram:TypeCodes>380'))).not.toEqual([]);
  }, 60_000);

  it('hands each document to the directory platform once, with its status, and brings statuses back', async () => {
    const first = await t.deps.einvoices.submit(invoiceId);
    expect(first.status).toBe('deposited');
    expect(first.platform).toBe('directory');
    const again = await t.deps.einvoices.submit(invoiceId);
    expect(again.flowId).toBe(first.flowId);
    const number = first.number;
    const written = JSON.parse(readFileSync(path.join(einvoiceDir, `${number}.json`), 'utf8'));
    expect(written.status).toBe('deposited');
    const onDisk = readFileSync(path.join(einvoiceDir, `${number}.pdf`));
    expect((await facturXStructure(onDisk)).problems).toEqual([]);

    // Whoever carries the files writes the buyer's answer back; the sync job reads it.
    writeFileSync(
      path.join(einvoiceDir, `${number}.json`),
      JSON.stringify({
        ...written,
        status: 'accepted',
        reason: '205 Approuvée',
        updated_at: '2026-11-05T08:00:00.000Z',
      }),
    );
    expect(await t.deps.einvoices.sync()).toEqual({ read: 1, changed: 1 });
    expect(await t.deps.einvoices.sync()).toEqual({ read: 0, changed: 0 });
    const api = await call(t.app, {
      method: 'GET',
      url: `${API}/invoices/${invoiceId}`,
      headers: brand.headers,
    });
    expect(api.data.invoice).toMatchObject({
      einvoice_status: 'accepted',
      einvoice_status_reason: '205 Approuvée',
    });
    const { rows } = await t.pool.query(
      `SELECT data AS payload FROM outbox_events WHERE brand_id = $1 AND type = 'invoice.status_changed' ORDER BY seq`,
      [brand.brandId],
    );
    expect(rows.map((r) => [r.payload.invoice.einvoice_status, r.payload.previous_einvoice_status])).toEqual([
      ['deposited', 'pending'],
      ['accepted', 'deposited'],
    ]);

    // Paid: the payment data (date, amounts per VAT rate) goes through the same platform.
    expect(await t.deps.einvoices.reportPayment(invoiceId)).toBe(true);
    expect(await t.deps.einvoices.reportPayment(invoiceId)).toBe(false);
    const payment = JSON.parse(readFileSync(path.join(einvoiceDir, `${number}.payment.json`), 'utf8'));
    const credit = await call(t.app, {
      method: 'GET',
      url: `${API}/invoices/${creditNoteId}`,
      headers: brand.headers,
    });
    const paid = api.data.invoice.total_eur + credit.data.invoice.total_eur; // the credit note is deducted
    expect(payment).toMatchObject({ invoiceNumber: number, paidOn: '2026-11-20', currency: 'EUR' });
    expect(payment.amounts).toEqual([
      {
        ratePercent: 20,
        taxableCents: Math.round(
          (api.data.invoice.total_excl_tax_eur + credit.data.invoice.total_excl_tax_eur) * 100,
        ),
        vatCents: Math.round((api.data.invoice.vat_eur + credit.data.invoice.vat_eur) * 100),
        totalCents: Math.round(paid * 100),
      },
    ]);
    const ops = await call(t.app, { method: 'GET', url: `/ops/v1/invoices/${invoiceId}`, headers: OPS });
    expect(ops.statusCode, ops.body).toBe(200);
    expect(ops.data.einvoice.history.map((h: { status: string }) => h.status)).toEqual([
      'pending',
      'deposited',
      'accepted',
      'paid',
    ]);
    // The brand's people see it on the invoice's page.
    const user = await createUser(t.deps, { brandId: brand.brandId, role: 'finance' });
    const browser = new Browser(t.app, '10.41.0.1');
    expect((await browser.signIn(user.email, PASSWORD)).status).toBe(303);
    const page = await browser.get(`/account/invoices/${invoiceId}?lang=fr`);
    expect(page.body).toContain('Facture électronique (Factur-X)');
    expect(page.body).toContain('Encaissement transmis');
    const cli = await runDlv(['invoices', 'show', invoiceId], { DATABASE_URL: scratch.url });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/E-INVOICE\s+paid/);
    expect(cli.stdout).toContain('205 Approuvée');
  });
});

describe('a brand without what an e-invoice needs', () => {
  it('is held, not invoiced, and the operator is told why; the next run after its details are given issues it', async () => {
    const bare = await createBrandWithKey(t.deps, { company: null });
    await orderAt(bare, '2025-02-10T10:00:00Z', 'standard');
    now = new Date('2025-03-01T06:00:00Z');

    const run = await t.deps.invoices.issueMonth('2025-02', testOperator);
    expect(run.issued.map((i) => i.brandId)).not.toContain(bare.brandId);
    const held = run.held.find((h) => h.brandId === bare.brandId)!;
    expect(held.missing.map((m) => m.field)).toEqual(['siren', 'billing_address']);
    expect(held.reason).toContain(
      `brand ${bare.brandId} cannot be invoiced: no SIREN and no billing address`,
    );
    // No number was used, nothing stored: the month is still a draft.
    expect(
      (await t.pool.query('SELECT 1 FROM invoices WHERE brand_id = $1', [bare.brandId])).rows,
    ).toHaveLength(0);

    const cli = await runDlv(['invoices', 'issue', '--month', '2025-02'], { DATABASE_URL: scratch.url });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('Not issued, 1 brand(s) lacking what an e-invoice needs');
    expect(cli.stdout).toContain(`brand ${bare.brandId} cannot be invoiced: no SIREN`);
    const ops = await call(t.app, {
      method: 'POST',
      url: '/ops/v1/invoices/issue',
      headers: OPS,
      payload: { month: '2025-02' },
    });
    expect(ops.statusCode, ops.body).toBe(200);
    expect(ops.data.held).toEqual([expect.objectContaining({ brand_id: bare.brandId, reason: held.reason })]);

    // A mistyped SIREN is refused with what is wrong, and nothing changes.
    const bad = await call(t.app, {
      method: 'PATCH',
      url: `/ops/v1/brands/${bare.brandId}/company`,
      headers: OPS,
      payload: { siren: '732 829 321', billing_address: '3 rue de Rivoli | Paris' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.data.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'siren', message: expect.stringContaining('Luhn') }),
        expect.objectContaining({ field: 'billing_address', message: expect.stringContaining('postcode') }),
      ]),
    );
    const cliFix = await runDlv(
      [
        'brands',
        'company',
        bare.brandId,
        '--siren',
        '732 829 320',
        '--billing-address',
        '3 rue de Rivoli | 75004 Paris',
      ],
      { DATABASE_URL: scratch.url },
    );
    expect(cliFix.code, cliFix.stderr).toBe(0);
    expect(cliFix.stdout).toMatch(/E-INVOICES\s+ready/);

    now = new Date('2025-03-01T07:05:00Z');
    const next = await t.deps.invoices.issueDue();
    expect(next.held.map((h) => h.brandId)).not.toContain(bare.brandId);
    expect(next.issued.map((i) => i.brandId)).toContain(bare.brandId);
  }, 60_000);
});

describe('the operator opted for VAT on debits', () => {
  it('says so on the invoice (PDF and XML), and reports no payment', async () => {
    const { createDeps } = await import('../src/deps.ts');
    const { testConfig } = await import('./support/app.ts');
    const deps = createDeps(
      testConfig({
        databaseUrl: scratch.url,
        einvoicing: { vatOnDebits: true, platform: { kind: 'directory', dir: einvoiceDir } },
      }),
      t.pool,
      () => now,
      { log: () => {} },
    );
    const brand = await createBrandWithKey(deps);
    await orderAt(brand, '2024-05-10T10:00:00Z', 'express');
    now = new Date('2024-06-01T06:00:00Z');
    const invoice = (await deps.invoices.issueMonth('2024-05', testOperator)).issued.find(
      (i) => i.brandId === brand.brandId,
    )!;
    const { pdf, xml } = await deps.invoices.facturX(invoice.id);
    expect(ciiValues(xml).all('DueDateTypeCode')).toEqual(['5']);
    expect(await fatalRules(xml)).toEqual([]);
    expect((await pdfText(pdf)).replace(/\s+/g, ' ')).toContain(
      "Option pour le paiement de la taxe d'après les débits.",
    );
    now = new Date('2024-06-10T10:00:00Z');
    await deps.invoices.markPaid(invoice.id, testOperator);
    expect(
      await t.pool.query('SELECT 1 FROM einvoice_payment_reports WHERE invoice_id = $1', [invoice.id]),
    ).toMatchObject({ rowCount: 0 });
  }, 60_000);
});
