import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingPeriodOf } from '../src/domain/invoices/billing-period.ts';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { orderJson } from '../src/domain/orders/order-json.ts';
import { API, call, createBrandWithKey, TEST_PICKUP_ADDRESS, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { subscribeToWebhooks } from './support/orders.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

// Issuing invoices concerns every brand of a database: this file has a database of its own.
let t: ScratchTestApp;
let now = new Date('2026-10-15T10:00:00Z');
beforeAll(async () => {
  t = await buildScratchTestApp({ clock: () => now });
});
afterAll(() => t.close());

async function orderAt(brand: TestBrand, at: string, body: object = {}) {
  now = new Date(at);
  const order = await t.deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: TEST_PICKUP_ADDRESS },
    { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris', ...body },
  );
  return { trackingRef: order.trackingRef, order: orderJson(order, t.deps.links) };
}

const get = (brand: TestBrand, url: string) =>
  call(t.app, { method: 'GET', url: `${API}${url}`, headers: brand.headers });

describe('monthly invoices', () => {
  let brand: TestBrand;
  const refs: Record<string, string> = {};

  beforeAll(async () => {
    brand = await createBrandWithKey(t.deps, { name: 'Maison Facture' });
    await subscribeToWebhooks(t.pool, brand.brandId);
    // 23:30 in Paris on 31 October (UTC+1 after the DST change) is 22:30 UTC: October.
    refs.lateOctober = (await orderAt(brand, '2026-10-31T22:30:00Z')).trackingRef;
    // 00:30 in Paris on 1 November is 23:30 UTC on 31 October: November.
    refs.earlyNovember = (await orderAt(brand, '2026-10-31T23:30:00Z')).trackingRef;
    refs.octoberExpress = (
      await orderAt(brand, '2026-10-02T08:00:00Z', { service: 'express', quantity: 3 })
    ).trackingRef;
    refs.cancelled = (await orderAt(brand, '2026-10-05T08:00:00Z')).trackingRef;
    await t.deps.orders.cancel(brand.brandId, refs.cancelled);
    refs.pickedUp = (await orderAt(brand, '2026-10-06T08:00:00Z')).trackingRef;
    await t.deps.orders.setStatus(refs.pickedUp, 'picked_up', null, testOperator);
    refs.awaiting = (await orderAt(brand, '2026-10-07T08:00:00Z', { delivery_address: null })).trackingRef;
    // 2026-03 (DST begins on the 29th): 00:30 on 1 April Paris is 22:30 UTC on 31 March.
    refs.april = (await orderAt(brand, '2026-03-31T22:30:00Z')).trackingRef;
    now = new Date('2026-10-20T10:00:00Z');
  });

  it('shows the running month as a draft whose totals are the sum of its lines', async () => {
    const list = await get(brand, '/invoices');
    expect(list.statusCode).toBe(200);
    const draft = list.data.invoices[0];
    expect(draft).toMatchObject({
      id: invoiceIdFor(brand.brandId, '2026-10'),
      period: '2026-10',
      status: 'draft',
      number: null,
      currency: 'EUR',
      issued_at: null,
    });
    const detail = await get(brand, `/invoices/${draft.id}`);
    const lines = detail.data.invoice.lines as {
      tracking_ref: string;
      price_excl_tax_eur: number;
      vat_eur: number;
      price_eur: number;
    }[];
    expect(lines.map((l) => l.tracking_ref).sort()).toEqual(
      [refs.lateOctober, refs.octoberExpress, refs.pickedUp].sort(),
    );
    expect(draft.order_count).toBe(3);
    const cents = (v: number) => Math.round(v * 100);
    expect(cents(draft.total_excl_tax_eur)).toBe(lines.reduce((s, l) => s + cents(l.price_excl_tax_eur), 0));
    expect(cents(draft.vat_eur)).toBe(lines.reduce((s, l) => s + cents(l.vat_eur), 0));
    expect(cents(draft.total_eur)).toBe(cents(draft.total_excl_tax_eur) + cents(draft.vat_eur));
    for (const l of lines)
      expect(cents(l.vat_eur)).toBe(Math.floor((cents(l.price_excl_tax_eur) * 20 + 50) / 100));
  });

  it('refuses to issue a month that is not over', async () => {
    await expect(t.deps.invoices.issueMonth('2026-10', testOperator)).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('issues October on 1 November with the next gap-free number, once', async () => {
    now = new Date('2026-11-01T00:10:00Z'); // 01:10 in Paris
    const first = await t.deps.invoices.issueDue();
    expect(first.period).toBe('2026-10');
    expect(first.issued).toHaveLength(1);
    const invoice = first.issued[0]!;
    expect(invoice).toMatchObject({
      status: 'issued',
      number: 'F2026-000001',
      orderCount: 3,
      dueDate: '2026-12-01',
    });
    expect(invoice.id).toBe(invoiceIdFor(brand.brandId, '2026-10'));
    expect((await t.deps.invoices.issueMonth('2026-10', testOperator)).issued).toHaveLength(0);

    // November is now the draft (with the 00:30 order); October is issued and immutable.
    const list = await get(brand, '/invoices');
    expect(
      list.data.invoices.map((i: { period: string; status: string }) => `${i.period}:${i.status}`),
    ).toEqual(['2026-11:draft', '2026-10:issued']);
    await expect(
      t.pool.query('UPDATE invoice_lines SET price_cents = 0 WHERE invoice_id = $1', [invoice.id]),
    ).rejects.toThrow(/immutable/);
    await expect(
      t.pool.query("UPDATE invoices SET number = 'F2026-999999' WHERE id = $1", [invoice.id]),
    ).rejects.toThrow(/only be marked paid/);
    const { rows } = await t.pool.query(
      "SELECT count(*)::int AS n FROM outbox_events WHERE brand_id = $1 AND type = 'invoice.issued'",
      [brand.brandId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('bills an order completed after its creation month was issued on the month of its completion', async () => {
    // Created without an address on 7 October (no price then), completed on 3 November.
    now = new Date('2026-11-03T09:00:00Z');
    await t.deps.orders.update(brand.brandId, refs.awaiting!, {
      delivery_address: '3 rue de la Paix 75002 Paris',
    });
    const refsOf = (res: Awaited<ReturnType<typeof get>>) =>
      res.data.invoice.lines.map((l: { tracking_ref: string }) => l.tracking_ref).sort();
    const november = await get(brand, `/invoices/${invoiceIdFor(brand.brandId, '2026-11')}`);
    expect(refsOf(november)).toEqual([refs.earlyNovember, refs.awaiting].sort());
    const october = await get(brand, `/invoices/${invoiceIdFor(brand.brandId, '2026-10')}`);
    expect(october.data.invoice.order_count).toBe(3);
    expect(refsOf(october)).not.toContain(refs.awaiting);
  });

  it('issues nothing for a month without billable orders', async () => {
    now = new Date('2026-11-01T00:10:00Z');
    expect((await t.deps.invoices.issueMonth('2026-09', testOperator)).issued).toHaveLength(0);
    const march = await t.deps.invoices.issueMonth('2026-03', testOperator);
    expect(march.issued).toHaveLength(0); // the order at 00:30 on 1 April belongs to April
    const april = await t.deps.invoices.issueMonth('2026-04', testOperator);
    expect(april.issued.map((i) => i.orderCount)).toEqual([1]);
  });

  it('marks an invoice paid, idempotently; drafts cannot be', async () => {
    const id = invoiceIdFor(brand.brandId, '2026-10');
    const paid = await t.deps.invoices.markPaid(id, testOperator);
    expect(paid.status).toBe('paid');
    expect((await t.deps.invoices.markPaid(id, testOperator)).paidAt).toEqual(paid.paidAt);
    // November is still a draft in early December: paying it is refused as such.
    now = new Date('2026-12-05T10:00:00Z');
    await expect(
      t.deps.invoices.markPaid(invoiceIdFor(brand.brandId, '2026-11'), testOperator),
    ).rejects.toMatchObject({
      code: 'invalid_transition',
      message: expect.stringContaining('is a draft'),
    });
    const list = await get(brand, '/invoices?status=paid');
    expect(list.data.invoices.map((i: { id: string }) => i.id)).toEqual([id]);
  });

  it('serves the PDF with the number, the totals and the legal mentions', async () => {
    const id = invoiceIdFor(brand.brandId, '2026-10');
    const res = await call(t.app, {
      method: 'GET',
      url: `${API}/invoices/${id}/pdf`,
      headers: brand.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await new PDFParse({ data: new Uint8Array(res.rawPayload) }).getText();
    const detail = await get(brand, `/invoices/${id}`);
    const fr = (v: number) => v.toFixed(2).replace('.', ',');
    expect(text).toContain('F2026-000001');
    expect(text).toContain(fr(detail.data.invoice.total_eur));
    expect(text).toContain(fr(detail.data.invoice.total_excl_tax_eur));
    expect(text).toContain('Maison Facture');
    expect(text).toMatch(/40/);
    for (const line of detail.data.invoice.lines) expect(text).toContain(line.tracking_ref);
    const draft = await call(t.app, {
      method: 'GET',
      url: `${API}/invoices/${invoiceIdFor(brand.brandId, '2026-11')}/pdf`,
      headers: brand.headers,
    });
    expect(draft.statusCode).toBe(200);
  });

  it("answers 404 for another brand's invoice, its lines and its PDF", async () => {
    const stranger = await createBrandWithKey(t.deps);
    const id = invoiceIdFor(brand.brandId, '2026-10');
    for (const url of [
      `/invoices/${id}`,
      `/invoices/${id}/pdf`,
      `/invoices/${invoiceIdFor(brand.brandId, '2026-11')}`,
      '/invoices/inv_0000000000000000',
      '/invoices/nope',
      `/invoices/inv_${'0'.repeat(46)}`,
      `/invoices/inv_${'0'.repeat(46)}/pdf`,
    ]) {
      const res = await get(stranger, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.data.error).toBe('not_found');
    }
    const list = await get(stranger, '/invoices');
    expect(
      list.data.invoices.map((i: { status: string; order_count: number }) => [i.status, i.order_count]),
    ).toEqual([['draft', 0]]);
  });

  it('validates list parameters', async () => {
    for (const query of ['?status=void', '?limit=0', '?limit=201', '?cursor=abc']) {
      expect((await get(brand, `/invoices${query}`)).statusCode, query).toBe(400);
    }
    const page = await get(brand, '/invoices?limit=1');
    expect(page.data.invoices).toHaveLength(1);
    const next = await get(brand, `/invoices?limit=1&cursor=${page.data.next_cursor}`);
    expect(next.data.invoices[0].period < page.data.invoices[0].period).toBe(true);
  });
});

describe('issuing under concurrency', () => {
  it('numbers gap-free with 10 concurrent issuers and issues each brand once', async () => {
    const brands: TestBrand[] = [];
    for (let i = 0; i < 8; i++) {
      const b = await createBrandWithKey(t.deps);
      brands.push(b);
      await orderAt(b, `2026-12-${String(10 + i).padStart(2, '0')}T10:00:00Z`);
    }
    now = new Date('2027-01-01T06:00:00Z');
    const runs = await Promise.all(
      Array.from({ length: 10 }, () => t.deps.invoices.issueMonth('2026-12', testOperator)),
    );
    const issued = runs.flatMap((r) => r.issued);
    expect(issued).toHaveLength(8);
    expect(new Set(issued.map((i) => i.brandId)).size).toBe(8);
    expect(issued.map((i) => i.number).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `F2027-${String(i + 1).padStart(6, '0')}`),
    );
  });

  it('runs through the CLI, idempotently', async () => {
    // The CLI runs on the real clock, so it issues a month long over: June 2025.
    const b = await createBrandWithKey(t.deps);
    await orderAt(b, '2025-06-10T10:00:00Z');
    const env = { DATABASE_URL: t.databaseUrl };
    const first = await runDlv(['invoices', 'issue', '--month', '2025-06', '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    const issued = JSON.parse(first.stdout).issued as { id: string; brand_id: string; number: string }[];
    const mine = issued.find((i) => i.brand_id === b.brandId)!;
    expect(mine.number).toMatch(/^F2026-\d{6}$/);
    const again = await runDlv(['invoices', 'issue', '--month', '2025-06', '--json'], env);
    expect(JSON.parse(again.stdout).issued).toEqual([]);
    const paid = await runDlv(['invoices', 'mark-paid', mine.id, '--json'], env);
    expect(paid.code, paid.stderr).toBe(0);
    expect(JSON.parse(paid.stdout).status).toBe('paid');
    const bad = await runDlv(['invoices', 'issue', '--month', '2026-13'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/YYYY-MM/);
    const unknown = await runDlv(['invoices', 'mark-paid', 'inv_0000000000000000'], env);
    expect(unknown.code).toBe(1);
    // The current month's invoice is a draft, which cannot be paid (the CLI runs on the real clock).
    const current = billingPeriodOf(new Date());
    const draft = await runDlv(['invoices', 'mark-paid', invoiceIdFor(b.brandId, current)], env);
    expect(draft.code).toBe(1);
    expect(draft.stdout).toBe('');
    expect(draft.stderr).toMatch(/is a draft: it cannot be marked paid until it is issued/);
    expect(draft.stderr).toContain(`the ${current} invoice of brand ${b.brandId}`);
    const list = await runDlv(['invoices', 'list', '--brand', b.brandId, '--json'], env);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).invoices.map((i: { status: string }) => i.status)).toContain('paid');
  });
});

describe('the buyer on an issued document', () => {
  const pdfText = async (pdf: Buffer) => (await new PDFParse({ data: new Uint8Array(pdf) }).getText()).text;
  const company = (legalName: string) => ({
    legalName,
    billingAddress: '3 rue de Rivoli\n75004 Paris',
    siren: '732829320',
    vatNumber: 'FR44732829320',
    pickupAddress: TEST_PICKUP_ADDRESS,
  });

  it('keeps the billing details of the day it was issued; the draft shows the current ones', async () => {
    const b = await createBrandWithKey(t.deps);
    await t.deps.brands.updateCompany(b.brandId, company('Ancienne Raison SARL'), testOperator);
    await orderAt(b, '2025-03-10T10:00:00Z');
    now = new Date('2025-04-02T10:00:00Z');
    const issued = (await t.deps.invoices.issueMonth('2025-03', testOperator)).issued.find(
      (i) => i.brandId === b.brandId,
    )!;
    await orderAt(b, '2025-04-03T10:00:00Z');
    await t.deps.brands.updateCompany(b.brandId, company('Nouvelle Raison SAS'), testOperator);

    const old = await pdfText((await t.deps.invoices.pdf(b.brandId, issued.id)).pdf);
    expect(old).toContain('Ancienne Raison SARL');
    expect(old).not.toContain('Nouvelle Raison SAS');
    const draft = await pdfText(
      (await t.deps.invoices.pdf(b.brandId, invoiceIdFor(b.brandId, '2025-04'))).pdf,
    );
    expect(draft).toContain('Nouvelle Raison SAS');
    await expect(
      t.pool.query("UPDATE document_buyers SET name = 'x' WHERE document_id = $1", [issued.id]),
    ).rejects.toThrow(/immutable/);
  });
});
