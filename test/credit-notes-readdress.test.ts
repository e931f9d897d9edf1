import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { API, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { invoiceFootprint, raceWithIssuing } from './support/invoices.ts';
import { buildScratchTestApp } from './support/scratch-database.ts';

// Issue #23, item 22: re-addressing (PATCH) a pending order after its month was issued re-prices
// it; the issued invoice stays as it is, so the change is billed like a cancellation is credited:
// a credit note takes back the invoice line, and the order is billed again, at its new price, on
// the running month's invoice.
// Issuing invoices concerns every brand of a database: this file has a database of its own.
let t: TestApp;
let now = new Date('2026-10-15T10:00:00Z');
beforeAll(async () => {
  t = await buildScratchTestApp({ clock: () => now });
});
afterAll(() => t.close());

const PARIS = '12 rue Oberkampf 75011 Paris';
const PARIS_AGAIN = '30 rue de la Roquette 75011 Paris';
const VINCENNES = '3 avenue Foch 94300 Vincennes';
const MELUN = '2 rue du Château 77000 Melun';

async function orderAt(brand: TestBrand, at: string): Promise<string> {
  now = new Date(at);
  const order = await t.deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
    { customer_email: 'a@b.fr', delivery_address: PARIS },
  );
  return order.trackingRef;
}

const get = (brand: TestBrand, url: string) =>
  call(t.app, { method: 'GET', url: `${API}${url}`, headers: brand.headers });
const readdress = (brand: TestBrand, ref: string, address: string) =>
  call(t.app, {
    method: 'PATCH',
    url: `${API}/orders/${ref}`,
    headers: brand.headers,
    payload: { delivery_address: address },
  });
const cancelByBrand = (brand: TestBrand, ref: string) =>
  call(t.app, { method: 'POST', url: `${API}/orders/${ref}/cancel`, headers: brand.headers });

type Line = { tracking_ref: string; price_eur: number; price_excl_tax_eur: number; vat_eur: number };

async function linesOf(brand: TestBrand, period: string): Promise<Line[]> {
  const res = await get(brand, `/invoices/${invoiceIdFor(brand.brandId, period)}`);
  expect(res.statusCode).toBe(200);
  return res.data.invoice.lines;
}

/** Every credit note of the brand with its lines, oldest number first. */
async function creditNotesOf(brand: TestBrand) {
  const { rows } = await t.pool.query<{ id: string; number: string; credits_invoice_id: string }>(
    'SELECT id, number, credits_invoice_id FROM credit_notes WHERE brand_id = $1 ORDER BY number',
    [brand.brandId],
  );
  return Promise.all(
    rows.map(async (r) => ({ ...r, invoice: (await get(brand, `/invoices/${r.id}`)).data.invoice })),
  );
}

describe('re-addressing a pending order after its month was invoiced', () => {
  let brand: TestBrand;
  const refs: Record<string, string> = {};
  let october: Line[];
  let octoberFootprint: string;

  beforeAll(async () => {
    brand = await createBrandWithKey(t.deps, { name: 'Maison Réadresse' });
    refs.moved = await orderAt(brand, '2026-10-02T08:00:00Z');
    refs.samePrice = await orderAt(brand, '2026-10-03T08:00:00Z');
    refs.twice = await orderAt(brand, '2026-10-04T08:00:00Z');
    refs.thenCancelled = await orderAt(brand, '2026-10-05T08:00:00Z');
    refs.kept = await orderAt(brand, '2026-10-06T08:00:00Z');
    now = new Date('2026-11-01T00:10:00Z');
    await t.deps.invoices.issueMonth('2026-10', testOperator);
    october = await linesOf(brand, '2026-10');
    octoberFootprint = await invoiceFootprint(t.pool, invoiceIdFor(brand.brandId, '2026-10'));
    expect(october.map((l) => l.tracking_ref).sort()).toEqual(Object.values(refs).sort());
  });

  it('credits the invoice line and bills the new price on the running month, leaving the invoice unchanged', async () => {
    now = new Date('2026-11-03T09:00:00Z');
    const res = await readdress(brand, refs.moved!, VINCENNES);
    expect(res.statusCode).toBe(200);
    const billed = october.find((l) => l.tracking_ref === refs.moved)!;
    expect(res.data.order.price_eur).not.toBe(billed.price_eur);

    expect(await invoiceFootprint(t.pool, invoiceIdFor(brand.brandId, '2026-10'))).toBe(octoberFootprint);
    const notes = await creditNotesOf(brand);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.invoice).toMatchObject({
      type: 'credit_note',
      number: 'A2026-000001',
      period: '2026-10',
      credits_invoice: { id: invoiceIdFor(brand.brandId, '2026-10') },
      total_eur: -billed.price_eur,
      lines: [
        {
          ...billed,
          price_eur: -billed.price_eur,
          price_excl_tax_eur: -billed.price_excl_tax_eur,
          vat_eur: -billed.vat_eur,
        },
      ],
    });
    const november = await linesOf(brand, '2026-11');
    expect(november).toEqual([
      expect.objectContaining({ tracking_ref: refs.moved, price_eur: res.data.order.price_eur }),
    ]);
  });

  it('neither credits nor bills again when the new address costs the same', async () => {
    now = new Date('2026-11-03T10:00:00Z');
    const res = await readdress(brand, refs.samePrice!, PARIS_AGAIN);
    expect(res.statusCode).toBe(200);
    expect(res.data.order.delivery_address).toBe(PARIS_AGAIN);
    expect((await creditNotesOf(brand)).map((n) => n.number)).toEqual(['A2026-000001']);
    expect((await linesOf(brand, '2026-11')).map((l) => l.tracking_ref)).toEqual([refs.moved]);
  });

  it('credits once for two re-addressings in one month, billing the latest price', async () => {
    now = new Date('2026-11-04T09:00:00Z');
    expect((await readdress(brand, refs.twice!, VINCENNES)).statusCode).toBe(200);
    now = new Date('2026-11-05T09:00:00Z');
    const last = await readdress(brand, refs.twice!, MELUN);
    expect(last.statusCode).toBe(200);
    const notes = await creditNotesOf(brand);
    expect(notes.map((n) => n.invoice.lines.map((l: Line) => l.tracking_ref))).toEqual([
      [refs.moved],
      [refs.twice],
    ]);
    const november = await linesOf(brand, '2026-11');
    expect(november.find((l) => l.tracking_ref === refs.twice)?.price_eur).toBe(last.data.order.price_eur);
    expect(november).toHaveLength(2);
  });

  it('a re-billed order cancelled before its new month is issued is credited no further and not billed', async () => {
    now = new Date('2026-11-06T09:00:00Z');
    expect((await readdress(brand, refs.thenCancelled!, VINCENNES)).statusCode).toBe(200);
    now = new Date('2026-11-07T09:00:00Z');
    const cancelled = await cancelByBrand(brand, refs.thenCancelled!);
    expect(cancelled.statusCode).toBe(200);
    expect((await creditNotesOf(brand)).map((n) => n.invoice.lines[0].tracking_ref)).toEqual([
      refs.moved,
      refs.twice,
      refs.thenCancelled,
    ]);
    expect((await linesOf(brand, '2026-11')).map((l) => l.tracking_ref)).not.toContain(refs.thenCancelled);
  });

  it('bills the re-billed orders on the next issued invoice, and credits that line on a later change', async () => {
    now = new Date('2026-12-01T00:10:00Z');
    await t.deps.invoices.issueMonth('2026-11', testOperator);
    const november = await linesOf(brand, '2026-11');
    expect(november.map((l) => l.tracking_ref).sort()).toEqual([refs.moved, refs.twice].sort());
    // Still pending in December, re-addressed again: November's line is credited in its turn.
    now = new Date('2026-12-02T09:00:00Z');
    const res = await readdress(brand, refs.moved!, MELUN);
    expect(res.statusCode).toBe(200);
    const notes = await creditNotesOf(brand);
    expect(notes).toHaveLength(4);
    const last = notes[3]!.invoice;
    const billed = november.find((l) => l.tracking_ref === refs.moved)!;
    expect(last).toMatchObject({
      period: '2026-11',
      credits_invoice: { id: invoiceIdFor(brand.brandId, '2026-11') },
      total_eur: -billed.price_eur,
    });
    // Cancelled now, the December line (not issued yet) simply goes: nothing more is credited.
    now = new Date('2026-12-03T09:00:00Z');
    await t.deps.orders.cancel(brand.brandId, refs.moved!);
    expect(await creditNotesOf(brand)).toHaveLength(4);
    const december = await get(brand, `/invoices/${invoiceIdFor(brand.brandId, '2026-12')}`);
    expect(december.data.invoice.lines.map((l: Line) => l.tracking_ref)).not.toContain(refs.moved);
  });

  it('credits the newest line of a re-billed order cancelled after its new month was issued', async () => {
    now = new Date('2026-12-04T09:00:00Z');
    const res = await cancelByBrand(brand, refs.twice!);
    expect(res.statusCode).toBe(200);
    const notes = await creditNotesOf(brand);
    expect(notes).toHaveLength(5);
    expect(notes[4]!.invoice).toMatchObject({
      period: '2026-11',
      lines: [expect.objectContaining({ tracking_ref: refs.twice })],
    });
  });
});

describe('re-addressing while its month is being issued', () => {
  it('credits the line the issuer wrote and bills the new price on the next month', async () => {
    const brand = await createBrandWithKey(t.deps);
    const raced = await orderAt(brand, '2027-01-11T10:00:00Z');
    const patched = await raceWithIssuing(
      t.pool,
      2027,
      () => {
        now = new Date('2027-02-01T06:00:00Z');
        return t.deps.invoices.issueMonth('2027-01', testOperator);
      },
      () => {
        now = new Date('2027-02-01T06:00:01Z');
        return readdress(brand, raced, VINCENNES);
      },
    );
    expect(patched.statusCode).toBe(200);
    const january = await linesOf(brand, '2027-01');
    expect(january.map((l) => l.tracking_ref)).toEqual([raced]);
    expect(january[0]!.price_eur).not.toBe(patched.data.order.price_eur);
    expect((await creditNotesOf(brand)).map((n) => n.invoice.total_eur)).toEqual([-january[0]!.price_eur]);
    expect(await linesOf(brand, '2027-02')).toEqual([
      expect.objectContaining({ tracking_ref: raced, price_eur: patched.data.order.price_eur }),
    ]);
  });
});
