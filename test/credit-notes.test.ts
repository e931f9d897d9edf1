import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditNoteIdFor } from '../src/domain/invoices/credit-notes.ts';
import { invoiceIdFor } from '../src/domain/invoices/invoice-service.ts';
import { QUEUED_JOBS } from '../src/infra/queue/queue-sql.ts';
import { API, buildTestApp, call, createBrandWithKey, type TestApp, type TestBrand } from './support/app.ts';
import { testOperator } from './support/audit.ts';
import { invoiceFootprint, raceWithIssuing } from './support/invoices.ts';
import { waitForLockWaiters } from './support/lock-waiters.ts';
import { subscribeToWebhooks } from './support/orders.ts';
import { createScratchDatabase } from './support/scratch-database.ts';

// Issuing invoices concerns every brand of a database: this file has a database of its own.
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let t: TestApp;
let now = new Date('2026-10-15T10:00:00Z');
const OPS = { authorization: 'Bearer ops-secret-token-0123456789abcdef' };
beforeAll(async () => {
  scratch = await createScratchDatabase();
  t = await buildTestApp({
    config: { databaseUrl: scratch.url, opsToken: 'ops-secret-token-0123456789abcdef' },
    clock: () => now,
  });
});
afterAll(async () => {
  await t.close();
  await scratch.drop();
});

async function orderAt(brand: TestBrand, at: string, body: object = {}): Promise<string> {
  now = new Date(at);
  const result = await t.deps.orders.create(
    { id: brand.brandId, defaultPickupAddress: '1 rue de Rivoli 75001 Paris' },
    { customer_email: 'a@b.fr', delivery_address: '12 rue Oberkampf 75011 Paris', ...body },
  );
  return result.trackingRef;
}

const get = (brand: TestBrand, url: string) =>
  call(t.app, { method: 'GET', url: `${API}${url}`, headers: brand.headers });
const cancelByBrand = (brand: TestBrand, ref: string) =>
  call(t.app, { method: 'POST', url: `${API}/orders/${ref}/cancel`, headers: brand.headers });

async function creditNotesOf(brandId: string) {
  const { rows } = await t.pool.query<{
    id: string;
    number: string;
    credits_invoice_id: string;
    refs: string[];
  }>(
    `SELECT c.id, c.number, c.credits_invoice_id,
            array(SELECT tracking_ref FROM credit_note_lines l WHERE l.credit_note_id = c.id) AS refs
       FROM credit_notes c WHERE c.brand_id = $1 ORDER BY c.number`,
    [brandId],
  );
  return rows;
}

describe('credit notes for orders cancelled after invoicing', () => {
  let brand: TestBrand;
  const refs: Record<string, string> = {};
  let octoberId: string;
  let before: { footprint: string; json: unknown; pdf: Buffer };

  beforeAll(async () => {
    brand = await createBrandWithKey(t.deps, { name: 'Maison Avoir' });
    await subscribeToWebhooks(t.pool, brand.brandId);
    refs.byBrand = await orderAt(brand, '2026-10-02T08:00:00Z', { service: 'express', quantity: 2 });
    refs.byOps = await orderAt(brand, '2026-10-03T08:00:00Z');
    refs.kept = await orderAt(brand, '2026-10-04T08:00:00Z');
    refs.cancelledBefore = await orderAt(brand, '2026-10-05T08:00:00Z');
    await t.deps.orders.cancel(brand.brandId, refs.cancelledBefore);
    refs.awaiting = await orderAt(brand, '2026-10-06T08:00:00Z', { delivery_address: null });
    now = new Date('2026-11-01T00:10:00Z');
    const issued = await t.deps.invoices.issueDue();
    expect(issued.issued.map((i) => i.number)).toEqual(['F2026-000001']);
    octoberId = invoiceIdFor(brand.brandId, '2026-10');
    const pdf = await get(brand, `/invoices/${octoberId}/pdf`);
    before = {
      footprint: await invoiceFootprint(t.pool, octoberId),
      json: (await get(brand, `/invoices/${octoberId}`)).data,
      pdf: pdf.rawPayload,
    };
  });

  it('issues exactly one credit note, numbered A<year>-000001, when the brand cancels a billed order', async () => {
    now = new Date('2026-11-03T09:00:00Z');
    const res = await cancelByBrand(brand, refs.byBrand!);
    expect(res.statusCode).toBe(200);
    const notes = await creditNotesOf(brand.brandId);
    expect(notes).toEqual([
      {
        id: creditNoteIdFor(brand.brandId, Number((await orderRow(refs.byBrand!)).id)),
        number: 'A2026-000001',
        credits_invoice_id: octoberId,
        refs: [refs.byBrand],
      },
    ]);
    const detail = await get(brand, `/invoices/${notes[0]!.id}`);
    expect(detail.statusCode).toBe(200);
    const billed = (
      before.json as { invoice: { lines: { tracking_ref: string; price_eur: number }[] } }
    ).invoice.lines.find((l) => l.tracking_ref === refs.byBrand)!;
    expect(detail.data.invoice).toMatchObject({
      type: 'credit_note',
      number: 'A2026-000001',
      period: '2026-10',
      status: 'issued',
      order_count: 1,
      total_eur: -billed.price_eur,
      issued_at: now.toISOString(),
      due_date: null,
      paid_at: null,
      credits_invoice: { id: octoberId, number: 'F2026-000001' },
      lines: [
        {
          ...billed,
          price_excl_tax_eur: -(billed as unknown as { price_excl_tax_eur: number }).price_excl_tax_eur,
          vat_eur: -(billed as unknown as { vat_eur: number }).vat_eur,
          price_eur: -billed.price_eur,
        },
      ],
    });
    const cents = (v: number) => Math.round(v * 100);
    const note = detail.data.invoice;
    expect(cents(note.total_eur)).toBe(cents(note.total_excl_tax_eur) + cents(note.vat_eur));
  });

  it('issues the next number when the operator cancels one, through the operations API', async () => {
    now = new Date('2026-11-04T09:00:00Z');
    const res = await call(t.app, {
      method: 'POST',
      url: `/ops/v1/orders/${refs.byOps}/status`,
      headers: OPS,
      payload: { status: 'cancelled', note: 'Brand phoned' },
    });
    expect(res.statusCode).toBe(200);
    expect((await creditNotesOf(brand.brandId)).map((n) => [n.number, n.refs])).toEqual([
      ['A2026-000001', [refs.byBrand]],
      ['A2026-000002', [refs.byOps]],
    ]);
  });

  it('issues none for an order cancelled before its invoice, or never billed', async () => {
    now = new Date('2026-11-05T09:00:00Z');
    const november = await orderAt(brand, '2026-11-05T09:00:00Z');
    await t.deps.orders.cancel(brand.brandId, november); // on the running draft only
    await t.deps.orders.cancel(brand.brandId, refs.awaiting!); // never priced
    const credited = (await creditNotesOf(brand.brandId)).flatMap((n) => n.refs);
    expect(credited).toEqual([refs.byBrand, refs.byOps]);
    expect(credited).not.toContain(refs.cancelledBefore);
  });

  it('leaves the corrected invoice byte-for-byte unchanged: stored rows, JSON and PDF', async () => {
    expect(await invoiceFootprint(t.pool, octoberId)).toBe(before.footprint);
    const json = (await get(brand, `/invoices/${octoberId}`)).data;
    expect(json).toEqual(before.json);
    expect((await get(brand, `/invoices/${octoberId}/pdf`)).rawPayload.equals(before.pdf)).toBe(true);
  });

  it('writes a credit_note.issued event with the credit note, in the same transaction', async () => {
    const { rows } = await t.pool.query<{ type: string; data: { credit_note: Record<string, unknown> } }>(
      `SELECT type, data FROM outbox_events WHERE brand_id = $1 AND type LIKE 'credit_note.%' ORDER BY seq`,
      [brand.brandId],
    );
    expect(rows.map((r) => r.data.credit_note.number)).toEqual(['A2026-000001', 'A2026-000002']);
    const notes = await creditNotesOf(brand.brandId);
    const detail = (await get(brand, `/invoices/${notes[0]!.id}`)).data.invoice;
    // co2e_grams is read from the orders at each read (docs/emissions.md), not frozen with the
    // document: the event carries what the document froze.
    const { lines: _lines, co2e_grams: _co2e, ...withoutLines } = detail;
    expect(rows[0]!.data.credit_note).toEqual(withoutLines);
    const jobs = await t.pool.query(
      `SELECT count(*)::int AS n FROM ${QUEUED_JOBS} j
        WHERE j.task = 'webhooks_fan_out' AND j.payload->>'event_id' IN
              (SELECT id FROM outbox_events WHERE brand_id = $1 AND type = 'credit_note.issued')`,
      [brand.brandId],
    );
    expect(jobs.rows[0].n).toBe(2);
  });

  it('keeps credit notes immutable and credits an order at most once', async () => {
    const [note] = await creditNotesOf(brand.brandId);
    await expect(
      t.pool.query("UPDATE credit_notes SET number = 'A2026-999999' WHERE id = $1", [note!.id]),
    ).rejects.toThrow(/immutable/);
    await expect(
      t.pool.query('DELETE FROM credit_note_lines WHERE credit_note_id = $1', [note!.id]),
    ).rejects.toThrow(/immutable/);
    await expect(
      t.pool
        .query(
          `INSERT INTO credit_notes (id, brand_id, number, credits_invoice_id, issued_at)
         VALUES ('inv_00000000000000aa', $1, 'A2026-999998', $2, now())`,
          [brand.brandId, octoberId],
        )
        .then(() =>
          t.pool.query(
            `INSERT INTO credit_note_lines SELECT 'inv_00000000000000aa', invoice_id, order_id, tracking_ref, service,
             created_at, price_excl_tax_cents, vat_cents, price_cents FROM credit_note_lines WHERE credit_note_id = $1`,
            [note!.id],
          ),
        ),
    ).rejects.toThrow(/duplicate key/);
  });

  it('refuses to mark a credit note paid', async () => {
    const [note] = await creditNotesOf(brand.brandId);
    await expect(t.deps.invoices.markPaid(note!.id, testOperator)).rejects.toMatchObject({
      code: 'invalid_transition',
      message: expect.stringContaining('A2026-000001 is a credit note'),
    });
  });
});

async function orderRow(ref: string) {
  const { rows } = await t.pool.query<{ id: string }>('SELECT id FROM orders WHERE tracking_ref = $1', [ref]);
  return rows[0]!;
}

describe('credit note numbering under concurrency', () => {
  it('numbers gap-free per year with concurrent cancellations, one credit note each', async () => {
    const brand = await createBrandWithKey(t.deps);
    const refs: string[] = [];
    for (let i = 0; i < 8; i++)
      refs.push(await orderAt(brand, `2026-12-${String(10 + i).padStart(2, '0')}T10:00:00Z`));
    now = new Date('2027-01-01T06:00:00Z');
    expect((await t.deps.invoices.issueMonth('2026-12', testOperator)).issued.length).toBeGreaterThanOrEqual(
      1,
    );
    now = new Date('2027-01-02T09:00:00Z');
    const results = await Promise.all(refs.map((ref) => cancelByBrand(brand, ref)));
    expect(results.map((r) => r.statusCode)).toEqual(refs.map(() => 200));
    const notes = await creditNotesOf(brand.brandId);
    expect(notes.map((n) => n.number)).toEqual(
      Array.from({ length: 8 }, (_, i) => `A2027-${String(i + 1).padStart(6, '0')}`),
    );
    expect(notes.flatMap((n) => n.refs).sort()).toEqual([...refs].sort());
  });

  it('does not bill an order whose cancellation is under way when its month is issued', async () => {
    const brand = await createBrandWithKey(t.deps);
    const kept = await orderAt(brand, '2027-01-10T10:00:00Z');
    const raced = await orderAt(brand, '2027-01-11T10:00:00Z');
    // A cancellation under way (its UPDATE done, not committed) when the issuer reads the month.
    const client = await t.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`UPDATE orders SET status = 'cancelled' WHERE tracking_ref = $1`, [raced]);
      now = new Date('2027-02-01T06:00:00Z');
      const issuing = t.deps.invoices.issueMonth('2027-01', testOperator);
      await waitForLockWaiters(t.pool, 1);
      await client.query('COMMIT');
      await issuing;
    } finally {
      client.release();
    }
    const lines = (await get(brand, `/invoices/${invoiceIdFor(brand.brandId, '2027-01')}`)).data.invoice
      .lines;
    expect(lines.map((l: { tracking_ref: string }) => l.tracking_ref)).toEqual([kept]);
  });

  it('credits an order cancelled while its month is being issued', async () => {
    const brand = await createBrandWithKey(t.deps);
    const raced = await orderAt(brand, '2027-02-11T10:00:00Z');
    const cancelled = await raceWithIssuing(
      t.pool,
      2027,
      () => {
        now = new Date('2027-03-01T06:00:00Z');
        return t.deps.invoices.issueMonth('2027-02', testOperator);
      },
      () => {
        now = new Date('2027-03-01T06:00:01Z');
        return cancelByBrand(brand, raced);
      },
    );
    expect(cancelled.statusCode).toBe(200);
    const february = (await get(brand, `/invoices/${invoiceIdFor(brand.brandId, '2027-02')}`)).data.invoice;
    expect(february.lines.map((l: { tracking_ref: string }) => l.tracking_ref)).toEqual([raced]);
    expect((await creditNotesOf(brand.brandId)).map((n) => n.refs)).toEqual([[raced]]);
  });
});
