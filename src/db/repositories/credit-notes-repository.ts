import type { InvoiceLine } from '../../domain/invoices/invoice-totals.ts';
import type { CreditNoteStore, StoredCreditNote, Totals } from '../../domain/invoices/ports.ts';
import type { Queryable } from '../pool.ts';
import { nextYearlySequence } from '../yearly-sequence.ts';
import {
  LINE_CO2E,
  LINE_COLUMNS,
  type LineDbRow,
  SUM_TOTALS,
  type TotalsRow,
  toLine,
  totals,
} from './invoices-repository.ts';

type CreditNoteRow = TotalsRow & {
  id: string;
  brand_id: string;
  number: string;
  issued_at: Date;
  invoice_id: string;
  invoice_number: string;
  invoice_issued_at: Date;
  period: string;
};

const toCreditNote = (r: CreditNoteRow): StoredCreditNote => ({
  id: r.id,
  brandId: r.brand_id,
  number: r.number,
  period: r.period,
  issuedAt: r.issued_at,
  creditsInvoice: { id: r.invoice_id, number: r.invoice_number, issuedAt: r.invoice_issued_at },
  ...totals(r),
});

const CREDIT_NOTE_WITH_TOTALS = `
  SELECT c.id, c.brand_id, c.number, c.issued_at, i.id AS invoice_id, i.number AS invoice_number,
         i.issued_at AS invoice_issued_at, i.period, t.order_count, t.total_excl, t.vat, t.total
    FROM credit_notes c
    JOIN invoices i ON i.id = c.credits_invoice_id
    CROSS JOIN LATERAL (
      SELECT ${SUM_TOTALS} FROM credit_note_lines l WHERE l.credit_note_id = c.id) t`;

export function creditNotesRepository(db: Queryable): CreditNoteStore {
  return {
    /**
     * The order's invoice line no credit note takes back yet, if any (only issued or paid invoices
     * have lines): its invoice, its price, and how many of the order's lines were credited before.
     * An order is on several invoices only when re-billed (migration 0027), every line but the
     * newest credited.
     */
    async openInvoiceLine(orderId: number): Promise<{
      invoiceId: string;
      priceExclTaxCents: number;
      priceCents: number;
      creditedBefore: number;
    } | null> {
      const { rows } = await db.query<{
        invoice_id: string;
        price_excl_tax_cents: number;
        price_cents: number;
        credited_before: number;
      }>(
        `SELECT l.invoice_id, l.price_excl_tax_cents, l.price_cents,
                (SELECT count(*)::int FROM credit_note_lines c WHERE c.order_id = l.order_id) AS credited_before
           FROM invoice_lines l
          WHERE l.order_id = $1 AND NOT EXISTS (
                SELECT 1 FROM credit_note_lines c WHERE c.invoice_id = l.invoice_id AND c.order_id = l.order_id)`,
        [orderId],
      );
      const r = rows[0];
      return r
        ? {
            invoiceId: r.invoice_id,
            priceExclTaxCents: r.price_excl_tax_cents,
            priceCents: r.price_cents,
            creditedBefore: r.credited_before,
          }
        : null;
    },

    /** Next credit-note number of `year`, under the counter's row lock (held until commit). */
    nextSequence: (year: number): Promise<number> => nextYearlySequence(db, 'credit_note_counters', year),

    /** Inserts the credit note with one line: the order's invoice line, negated. */
    async insert(note: {
      id: string;
      brandId: string;
      number: string;
      invoiceId: string;
      orderId: number;
      issuedAt: Date;
    }): Promise<void> {
      await db.query(
        `INSERT INTO credit_notes (id, brand_id, number, credits_invoice_id, issued_at) VALUES ($1, $2, $3, $4, $5)`,
        [note.id, note.brandId, note.number, note.invoiceId, note.issuedAt],
      );
      await db.query(
        `INSERT INTO credit_note_lines (credit_note_id, invoice_id, order_id, tracking_ref, service, created_at,
           price_excl_tax_cents, vat_cents, price_cents)
         SELECT $1, invoice_id, order_id, tracking_ref, service, created_at, -price_excl_tax_cents, -vat_cents, -price_cents
           FROM invoice_lines WHERE invoice_id = $2 AND order_id = $3`,
        [note.id, note.invoiceId, note.orderId],
      );
    },

    async find(id: string, brandId: string | null): Promise<StoredCreditNote | null> {
      const { rows } = await db.query<CreditNoteRow>(
        `${CREDIT_NOTE_WITH_TOTALS} WHERE c.id = $1 AND ($2::text IS NULL OR c.brand_id = $2)`,
        [id, brandId],
      );
      return rows[0] ? toCreditNote(rows[0]) : null;
    },

    async creditedBy(invoiceId: string, until: Date): Promise<Totals> {
      const { rows } = await db.query<TotalsRow>(
        `SELECT ${SUM_TOTALS} FROM credit_note_lines l JOIN credit_notes c ON c.id = l.credit_note_id
          WHERE l.invoice_id = $1 AND c.issued_at <= $2`,
        [invoiceId, until],
      );
      return totals(rows[0]!);
    },

    async lines(id: string): Promise<InvoiceLine[]> {
      const { rows } = await db.query<LineDbRow>(
        `SELECT ${LINE_COLUMNS}, ${LINE_CO2E} FROM credit_note_lines WHERE credit_note_id = $1 ORDER BY created_at, order_id`,
        [id],
      );
      return rows.map(toLine);
    },

    /**
     * Newest period first, then newest number first; strictly after `after` in that order. Numbers
     * are fixed-width, so comparing them as text orders them by year, then sequence.
     */
    async list(
      brandId: string,
      options: { after: { period: string; number: string } | null; limit: number },
    ) {
      const { rows } = await db.query<CreditNoteRow>(
        `${CREDIT_NOTE_WITH_TOTALS}
          WHERE c.brand_id = $1 AND ($2::text IS NULL OR (i.period, c.number) < ($2, $3))
          ORDER BY i.period DESC, c.number DESC LIMIT $4`,
        [brandId, options.after?.period ?? null, options.after?.number ?? '', options.limit],
      );
      return rows.map(toCreditNote);
    },

    // Written like invoice.issued (invoices-repository): the event row and its fan-out job.
  };
}
