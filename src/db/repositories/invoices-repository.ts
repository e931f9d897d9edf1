import type { InvoiceLine } from '../../domain/invoices/invoice-totals.ts';
import type { InvoiceStore, IssuedInvoiceInput, StoredInvoice, Totals } from '../../domain/invoices/ports.ts';
import { vatCents } from '../../domain/pricing/money.ts';
import type { Queryable } from '../pool.ts';
import { nextYearlySequence } from '../yearly-sequence.ts';

/** A line's columns (orders, invoice lines and credit note lines have them all), and the line they make. */
export type LineDbRow = {
  tracking_ref: string;
  service: string;
  created_at: Date;
  price_excl_tax_cents: number;
  vat_cents: number;
  price_cents: number;
  co2e_grams?: number | null;
};

export const LINE_COLUMNS = 'tracking_ref, service, created_at, price_excl_tax_cents, vat_cents, price_cents';
/** A stored line's order's CO₂e (invoice and credit-note lines name their order). */
export const LINE_CO2E = '(SELECT o.co2e_grams FROM orders o WHERE o.id = order_id) AS co2e_grams';

export const toLine = (r: LineDbRow): InvoiceLine => ({
  trackingRef: r.tracking_ref,
  service: r.service,
  createdAt: r.created_at,
  priceExclTaxCents: r.price_excl_tax_cents,
  vatCents: r.vat_cents,
  priceCents: r.price_cents,
  co2eGrams: r.co2e_grams ?? null,
});

/**
 * Orders billed in a period: priced in it (the caller gives the Paris month's UTC bounds) and not
 * cancelled — an order can only be cancelled before pickup, so a cancelled order is one cancelled
 * before pickup. An order is priced when it is created, unless it was created without an address:
 * then it is priced, and billed, when the address is completed (migration 0006).
 */
const pricedIn = (o: string, start: string, end: string) =>
  `((${o}created_at >= ${start} AND ${o}created_at < ${end} AND ${o}priced_at = ${o}created_at)
    OR (${o}priced_at <> ${o}created_at AND ${o}priced_at >= ${start} AND ${o}priced_at < ${end}))`;
/**
 * Priced in [start, end), as two index ranges (migration 0025): an order priced at its creation by
 * the (brand_id, created_at) index, one priced later by the partial (brand_id, priced_at) index.
 */
// A test order (livemode false, test mode) is never billed.
const BILLABLE = `brand_id = $1 AND livemode AND ${pricedIn('', '$2', '$3')} AND status <> 'cancelled'`;

/** The totals of a set of lines, summed in cents (for an invoice, a credit note, a month's orders). */
export const SUM_TOTALS = `count(*)::int AS order_count, coalesce(sum(price_excl_tax_cents), 0)::int8 AS total_excl,
  coalesce(sum(vat_cents), 0)::int8 AS vat, coalesce(sum(price_cents), 0)::int8 AS total`;

export type TotalsRow = { order_count: number; total_excl: number; vat: number; total: number };
export const totals = (r: TotalsRow): Totals => ({
  orderCount: r.order_count,
  totalExclTaxCents: r.total_excl,
  // EN 16931 BR-CO-17: the document's VAT is its one category's basis × rate, rounded once —
  // not the sum of the lines' rounded VAT, which drifts over many lines (invoice-totals.ts).
  vatCents: vatCents(Number(r.total_excl)),
  totalCents: Number(r.total_excl) + vatCents(Number(r.total_excl)),
});

type InvoiceRow = TotalsRow & {
  id: string;
  brand_id: string;
  period: string;
  number: string;
  status: 'issued' | 'paid';
  issued_at: Date;
  due_date: string;
  paid_at: Date | null;
};

const toInvoice = (r: InvoiceRow): StoredInvoice => ({
  id: r.id,
  brandId: r.brand_id,
  period: r.period,
  number: r.number,
  status: r.status,
  issuedAt: r.issued_at,
  dueDate: r.due_date,
  paidAt: r.paid_at,
  ...totals(r),
});

const INVOICE_WITH_TOTALS = `
  SELECT i.*, t.order_count, t.total_excl, t.vat, t.total
    FROM invoices i
    CROSS JOIN LATERAL (
      SELECT ${SUM_TOTALS} FROM invoice_lines l WHERE l.invoice_id = i.id) t`;

export function invoicesRepository(db: Queryable): InvoiceStore {
  return {
    async billableTotals(brandId: string, start: Date, end: Date): Promise<Totals> {
      const { rows } = await db.query<TotalsRow>(`SELECT ${SUM_TOTALS} FROM orders WHERE ${BILLABLE}`, [
        brandId,
        start,
        end,
      ]);
      return totals(rows[0]!);
    },

    /**
     * Share-locks the period's billable orders until the issuing transaction ends. A cancellation
     * (an UPDATE) then waits for the invoice to commit, and so sees its lines and credits the order;
     * one already under way is waited for instead, and its order is no longer billable.
     */
    async lockBillable(brandId: string, start: Date, end: Date): Promise<void> {
      await db.query(`SELECT count(*) FROM (SELECT 1 FROM orders WHERE ${BILLABLE} FOR SHARE) locked`, [
        brandId,
        start,
        end,
      ]);
    },

    async billableLines(brandId: string, start: Date, end: Date): Promise<InvoiceLine[]> {
      const { rows } = await db.query<LineDbRow>(
        `SELECT ${LINE_COLUMNS}, co2e_grams FROM orders WHERE ${BILLABLE} ORDER BY created_at, id`,
        [brandId, start, end],
      );
      return rows.map(toLine);
    },

    async issuedLines(invoiceId: string): Promise<InvoiceLine[]> {
      const { rows } = await db.query<LineDbRow>(
        `SELECT ${LINE_COLUMNS}, ${LINE_CO2E} FROM invoice_lines WHERE invoice_id = $1 ORDER BY created_at, order_id`,
        [invoiceId],
      );
      return rows.map(toLine);
    },

    /** Brands with at least one billable order in the period and no invoice for it yet. */
    async brandsToInvoice(period: string, start: Date, end: Date): Promise<string[]> {
      const { rows } = await db.query<{ brand_id: string }>(
        // One probe per brand through the brand's two indexes (LATERAL … LIMIT 1: an EXISTS could be
        // planned as one pass over every brand's orders).
        `SELECT b.id AS brand_id FROM brands b
          CROSS JOIN LATERAL (SELECT 1 FROM orders o WHERE o.brand_id = b.id AND ${pricedIn('o.', '$2', '$3')}
                                AND o.status <> 'cancelled' LIMIT 1) billable
          WHERE b.live_brand_id IS NULL
            AND NOT EXISTS (SELECT 1 FROM invoices i WHERE i.brand_id = b.id AND i.period = $1)
          ORDER BY b.id`,
        [period, start, end],
      );
      return rows.map((r) => r.brand_id);
    },

    async find(id: string, brandId: string | null): Promise<StoredInvoice | null> {
      const { rows } = await db.query<InvoiceRow>(
        `${INVOICE_WITH_TOTALS} WHERE i.id = $1 AND ($2::text IS NULL OR i.brand_id = $2)`,
        [id, brandId],
      );
      return rows[0] ? toInvoice(rows[0]) : null;
    },

    async findByPeriod(brandId: string, period: string): Promise<StoredInvoice | null> {
      const { rows } = await db.query<InvoiceRow>(
        `${INVOICE_WITH_TOTALS} WHERE i.brand_id = $1 AND i.period = $2`,
        [brandId, period],
      );
      return rows[0] ? toInvoice(rows[0]) : null;
    },

    /** Newest period first, strictly before `beforePeriod` when given. */
    async list(
      brandId: string,
      options: { status: 'issued' | 'paid' | null; beforePeriod: string | null; limit: number },
    ) {
      const { rows } = await db.query<InvoiceRow>(
        `${INVOICE_WITH_TOTALS}
          WHERE i.brand_id = $1 AND ($2::text IS NULL OR i.status = $2) AND ($3::text IS NULL OR i.period < $3)
          ORDER BY i.period DESC LIMIT $4`,
        [brandId, options.status, options.beforePeriod, options.limit],
      );
      return rows.map(toInvoice);
    },

    /** Next number of `year`, under the counter's row lock (held until the transaction ends). */
    nextSequence: (year: number): Promise<number> => nextYearlySequence(db, 'invoice_counters', year),

    /** Inserts the invoice and freezes its lines from the billable orders; returns the line count. */
    async insertIssued(invoice: IssuedInvoiceInput): Promise<number> {
      await db.query(
        `INSERT INTO invoices (id, brand_id, period, number, status, issued_at, due_date)
         VALUES ($1, $2, $3, $4, 'issued', $5, $6)`,
        [invoice.id, invoice.brandId, invoice.period, invoice.number, invoice.issuedAt, invoice.dueDate],
      );
      const { rowCount } = await db.query(
        `INSERT INTO invoice_lines (invoice_id, order_id, tracking_ref, service, created_at, price_excl_tax_cents, vat_cents, price_cents)
         SELECT $4, id, tracking_ref, service, created_at, price_excl_tax_cents, vat_cents, price_cents
           FROM orders WHERE ${BILLABLE}`,
        [invoice.brandId, invoice.start, invoice.end, invoice.id],
      );
      return rowCount ?? 0;
    },

    async markPaid(id: string, at: Date): Promise<boolean> {
      const { rowCount } = await db.query(
        `UPDATE invoices SET status = 'paid', paid_at = $2 WHERE id = $1 AND status = 'issued'`,
        [id, at],
      );
      return (rowCount ?? 0) > 0;
    },

    /** One issuer per (brand, month) until the transaction ends: a second one waits, then finds the invoice. */
    async lockPeriod(brandId: string, period: string): Promise<void> {
      await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `invoice:${brandId}:${period}`,
      ]);
    },
  };
}
