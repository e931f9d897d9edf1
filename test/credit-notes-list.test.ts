import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { API, call, createBrandWithKey, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { runDlv } from './support/run-cli.ts';
import { buildScratchTestApp, type ScratchTestApp } from './support/scratch-database.ts';

// Issuing invoices concerns every brand of a database: this file has a database of its own.
let t: ScratchTestApp;
let now = new Date('2026-09-01T10:00:00Z');
beforeAll(async () => {
  t = await buildScratchTestApp({ clock: () => now });
});
afterAll(() => t.close());

async function orderAt(brand: TestBrand, at: string): Promise<string> {
  now = new Date(at);
  const result = await t.deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
    { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris' },
  );
  return result.trackingRef;
}

type Listed = { id: string; number: string | null; period: string; status: string; type: string };
const get = (brand: TestBrand, url: string) =>
  call(t.app, { method: 'GET', url: `${API}${url}`, headers: brand.headers });
const label = (i: Listed) => `${i.period} ${i.number ?? 'draft'}`;

/** Every item of the list, following next_cursor `limit` at a time. */
async function walk(brand: TestBrand, query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 20; page++) {
    const res = await get(brand, `/invoices?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    seen.push(...res.data.invoices.map(label));
    cursor = res.data.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error('the cursor never ended');
}

describe('credit notes in the invoice list, detail, PDF and CLI', () => {
  let brand: TestBrand;
  const notes: Record<string, string> = {};

  beforeAll(async () => {
    brand = await createBrandWithKey(t.deps, { name: 'Maison Liste' });
    const september = [
      await orderAt(brand, '2026-09-02T08:00:00Z'),
      await orderAt(brand, '2026-09-03T08:00:00Z'),
    ];
    await orderAt(brand, '2026-09-04T08:00:00Z');
    now = new Date('2026-10-01T06:00:00Z');
    await t.deps.invoices.issueDue(); // F2026-000001
    const october = await orderAt(brand, '2026-10-02T08:00:00Z');
    await orderAt(brand, '2026-10-03T08:00:00Z');
    now = new Date('2026-11-01T06:00:00Z');
    await t.deps.invoices.issueDue(); // F2026-000002
    await t.deps.invoices.markPaid(invoiceIdFor(brand.brandId, '2026-09'), testOperator);
    now = new Date('2026-11-10T09:00:00Z');
    for (const [name, ref] of [
      ['first', september[0]!],
      ['second', october],
      ['third', september[1]!],
    ] as const) {
      const res = await call(t.app, {
        method: 'POST',
        url: `${API}/orders/${ref}/cancel`,
        headers: brand.headers,
      });
      expect(res.statusCode).toBe(200);
      notes[name] = (
        await t.pool.query('SELECT id FROM credit_notes WHERE number = $1', [
          `A2026-00000${Object.keys(notes).length + 1}`,
        ])
      ).rows[0].id;
    }
  });

  const FULL = [
    '2026-11 draft',
    '2026-10 A2026-000002',
    '2026-10 F2026-000002',
    '2026-09 A2026-000003',
    '2026-09 A2026-000001',
    '2026-09 F2026-000001',
  ];

  it('lists credit notes with the invoices: newest period first, credit notes before their invoice', async () => {
    const res = await get(brand, '/invoices');
    expect(res.data.invoices.map(label)).toEqual(FULL);
    expect(res.data.next_cursor).toBeNull();
    const [draft, note, invoice] = res.data.invoices;
    expect(draft).toMatchObject({ type: 'invoice', credits_invoice: null, status: 'draft' });
    expect(invoice).toMatchObject({ type: 'invoice', credits_invoice: null, status: 'issued' });
    expect(note).toMatchObject({
      id: notes.second,
      type: 'credit_note',
      status: 'issued',
      order_count: 1,
      due_date: null,
      credits_invoice: { id: invoiceIdFor(brand.brandId, '2026-10'), number: 'F2026-000002' },
    });
    expect(note.total_eur).toBeLessThan(0);
  });

  it('pages through both kinds with the cursor, each item exactly once', async () => {
    for (const limit of [1, 2, 4]) expect(await walk(brand, '', limit), `limit ${limit}`).toEqual(FULL);
    expect(await walk(brand, '&type=credit_note', 1)).toEqual([
      '2026-10 A2026-000002',
      '2026-09 A2026-000003',
      '2026-09 A2026-000001',
    ]);
    expect(await walk(brand, '&status=issued', 2)).toEqual(FULL.slice(1, 5));
    // Cursors are opaque (sealed, bound to brand and filters): a readable one of the old format is refused.
    const v1 = Buffer.from('i1.2026-10').toString('base64url');
    expect((await get(brand, `/invoices?cursor=${v1}`)).statusCode).toBe(400);
  });

  it('filters by type and status', async () => {
    const labels = async (query: string) => (await get(brand, `/invoices?${query}`)).data.invoices.map(label);
    expect(await labels('type=invoice')).toEqual([FULL[0], FULL[2], FULL[5]]);
    expect(await labels('status=paid')).toEqual(['2026-09 F2026-000001']);
    expect(await labels('status=paid&type=credit_note')).toEqual([]);
    expect(await labels('status=draft&type=credit_note')).toEqual([]);
    for (const query of ['type=avoir', 'type=', 'type=credit_note&status=void']) {
      const res = await get(brand, `/invoices?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.data.error).toBe('invalid_request');
    }
  });

  it('serves the credit note as a PDF that reads as a credit note', async () => {
    const detail = (await get(brand, `/invoices/${notes.first}`)).data.invoice;
    const res = await get(brand, `/invoices/${notes.first}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="A2026-000001.pdf"');
    const parser = new PDFParse({ data: new Uint8Array(res.rawPayload) });
    const { text } = await parser.getText();
    await parser.destroy();
    const fr = (v: number) => `${v.toFixed(2).replace('.', ',')} €`;
    for (const expected of [
      "FACTURE D'AVOIR",
      'CREDIT NOTE',
      'N° A2026-000001',
      "Date de l'avoir : 10/11/2026",
      'Avoir sur la facture N° F2026-000001 du 01/10/2026',
      'Maison Liste',
      `Total TTC ${fr(detail.total_eur)}`,
      `Total HT ${fr(detail.total_excl_tax_eur)}`,
      detail.lines[0].tracking_ref,
      'L441-10',
    ])
      expect(text).toContain(expected);
    expect(detail.total_eur).toBeLessThan(0);
  });

  it("answers 404 for another brand's credit note", async () => {
    const stranger = await createBrandWithKey(t.deps);
    for (const url of [`/invoices/${notes.first}`, `/invoices/${notes.first}/pdf`]) {
      expect((await get(stranger, url)).statusCode, url).toBe(404);
    }
    expect((await get(stranger, '/invoices?type=credit_note')).data.invoices).toEqual([]);
  });

  it('shows credit notes in `dlv invoices list` and refuses to mark one paid', async () => {
    const env = { DATABASE_URL: t.databaseUrl };
    const list = await runDlv(['invoices', 'list', '--brand', brand.brandId], env);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/TYPE\s+NUMBER/);
    expect(list.stdout).toMatch(
      /credit_note\s+A2026-000002\s+2026-10\s+issued\s+1\s+-[\d.]+ €\s+F2026-000002/,
    );
    const json = await runDlv(['invoices', 'list', '--brand', brand.brandId, '--json'], env);
    const listed = JSON.parse(json.stdout).invoices as Listed[];
    expect(listed.filter((i) => i.type === 'credit_note').map((i) => i.number)).toEqual([
      'A2026-000002',
      'A2026-000003',
      'A2026-000001',
    ]);
    const paid = await runDlv(['invoices', 'mark-paid', notes.first!], env);
    expect(paid.code).toBe(1);
    expect(paid.stderr).toContain('A2026-000001 is a credit note: it is not paid');
    const after = (await get(brand, `/invoices/${notes.first}`)).data.invoice;
    expect(after).toMatchObject({ status: 'issued', paid_at: null });
  });
});
