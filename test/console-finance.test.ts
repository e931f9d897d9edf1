import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { csrfOf } from './support/account-browser.ts';
import { buildTestApp, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { type ConsoleOperator, consoleOperator } from './support/console.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

// Issuing invoices and numbering credit notes concern every brand of a database: a database of its own.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let now = new Date('2026-10-02T08:00:00Z');
let brand: TestBrand;
let other: TestBrand;
const refs: string[] = [];
let finance: ConsoleOperator;
let octoberId: string;

async function orderFor(b: TestBrand, at: string): Promise<string> {
  now = new Date(at);
  const order = await t.deps.orders.create(
    { id: b.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
    { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris' },
  );
  return order.trackingRef;
}

beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({ config: { databaseUrl: scratch.url }, clock: () => now });
  brand = await createBrandWithKey(t.deps, { name: 'Maison Console' });
  other = await createBrandWithKey(t.deps, { name: 'Atelier Voisin' });
  refs.push(await orderFor(brand, '2026-10-02T08:00:00Z'), await orderFor(brand, '2026-10-03T08:00:00Z'));
  refs.push(await orderFor(other, '2026-10-04T08:00:00Z'));
  now = new Date('2026-11-01T00:10:00Z');
  expect((await t.deps.invoices.issueDue()).issued).toHaveLength(2);
  octoberId = invoiceIdFor(brand.brandId, '2026-10');
  now = new Date('2026-11-03T09:00:00Z');
  finance = await consoleOperator(t.app, t.deps, 'finance', () => now, '10.94.0.1');
});
afterAll(async () => {
  await t.close();
  await scratch.drop();
});

describe('Finance: credit notes', () => {
  it('shows the month per brand and in total', async () => {
    const page = await finance.b.get('/console/finance?month=2026-10');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Per brand');
    expect(page.body).toContain('Maison Console');
    expect(page.body).toContain('Atelier Voisin');
    expect(page.body).toContain('All brands');
    expect(page.body).toContain(`/console/finance/invoices/${octoberId}/credit`);
  });

  it('issues a credit note for one order of an invoice, lists it with the invoice, audited with its author', async () => {
    const page = await finance.b.get('/console/finance?month=2026-10');
    const done = await finance.b.post(`/console/finance/invoices/${octoberId}/credit`, {
      _csrf: csrfOf(page.body),
      month: '2026-10',
      order: refs[0]!.toLowerCase(),
    });
    expect(done.status).toBe(200);
    expect(done.body).toContain(`Credit note A2026-000001 issued for ${refs[0]} (invoice F2026-`);
    // Listed with the month it corrects, beside its invoice, and netted per brand.
    expect(done.body).toMatch(/A2026-000001 <span class="kind">→ F2026-\d+<\/span>/);
    expect(done.body).toContain('credit note');
    const audit = await t.pool.query(
      "SELECT order_refs, brand_id FROM audit_events WHERE actor_id = $1 AND action = 'credit_note.issued'",
      [finance.id],
    );
    expect(audit.rows).toEqual([{ order_refs: [refs[0]], brand_id: brand.brandId }]);
  });

  it('refuses a second credit note for the same order, and an order of another invoice (nothing issued)', async () => {
    const page = await finance.b.get('/console/finance?month=2026-10');
    const again = await finance.b.post(`/console/finance/invoices/${octoberId}/credit`, {
      _csrf: csrfOf(page.body),
      month: '2026-10',
      order: refs[0]!,
    });
    expect(again.status).toBe(422);
    expect(again.body).toContain('a credit note takes it back already');
    const elsewhere = await finance.b.post(`/console/finance/invoices/${octoberId}/credit`, {
      _csrf: csrfOf(page.body),
      month: '2026-10',
      order: refs[2]!,
    });
    expect(elsewhere.status).toBe(400);
    const garbage = await finance.b.post(`/console/finance/invoices/${octoberId}/credit`, {
      _csrf: csrfOf(page.body),
      month: '2026-10',
      order: 'not a reference',
    });
    expect(garbage.status).toBe(400);
    const { rows } = await t.pool.query('SELECT count(*)::int AS n FROM credit_notes');
    expect(rows[0].n).toBe(1);
  });

  it('answers 404 for an invoice that does not exist', async () => {
    const page = await finance.b.get('/console/finance');
    const res = await finance.b.post('/console/finance/invoices/inv_0000000000000000/credit', {
      _csrf: csrfOf(page.body),
      order: refs[1]!,
    });
    expect(res.status).toBe(404);
  });
});
