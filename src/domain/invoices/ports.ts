import type { InvoiceLine } from './invoice-totals.ts';

/** A billed order as it appears on an invoice (the domain's InvoiceLine). */
export type InvoiceLineRow = InvoiceLine;

export interface Totals {
  orderCount: number;
  totalExclTaxCents: number;
  vatCents: number;
  totalCents: number;
}

export interface StoredInvoice extends Totals {
  id: string;
  brandId: string;
  period: string;
  number: string;
  status: 'issued' | 'paid';
  issuedAt: Date;
  dueDate: string;
  paidAt: Date | null;
}

/** An invoice being issued: its number, dates and the period [start, end) whose orders it bills. */
export interface IssuedInvoiceInput {
  id: string;
  brandId: string;
  period: string;
  number: string;
  issuedAt: Date;
  dueDate: string;
  start: Date;
  end: Date;
}

export interface InvoiceStore {
  billableTotals(brandId: string, start: Date, end: Date): Promise<Totals>;
  /**
   * Share-locks the period's billable orders until the issuing transaction ends. A cancellation
   * (an UPDATE) then waits for the invoice to commit, and so sees its lines and credits the order;
   * one already under way is waited for instead, and its order is no longer billable.
   */
  lockBillable(brandId: string, start: Date, end: Date): Promise<void>;
  billableLines(brandId: string, start: Date, end: Date): Promise<InvoiceLine[]>;
  issuedLines(invoiceId: string): Promise<InvoiceLine[]>;
  /** Brands with at least one billable order in the period and no invoice for it yet. */
  brandsToInvoice(period: string, start: Date, end: Date): Promise<string[]>;
  find(id: string, brandId: string | null): Promise<StoredInvoice | null>;
  findByPeriod(brandId: string, period: string): Promise<StoredInvoice | null>;
  /** Newest period first, strictly before `beforePeriod` when given. */
  list(
    brandId: string,
    options: {
      status: 'issued' | 'paid' | null;
      beforePeriod: string | null;
      limit: number;
    },
  ): Promise<StoredInvoice[]>;
  /** Next number of `year`, under the counter's row lock (held until the transaction ends). */
  nextSequence: (year: number) => Promise<number>;
  /** Inserts the invoice and freezes its lines from the billable orders; returns the line count. */
  insertIssued(invoice: IssuedInvoiceInput): Promise<number>;
  markPaid(id: string, at: Date): Promise<boolean>;
  /** One issuer per (brand, month) until the transaction ends: a second one waits, then finds the invoice. */
  lockPeriod(brandId: string, period: string): Promise<void>;
}

/** A credit note as stored, with its totals summed from its (negative) lines. */
export interface StoredCreditNote extends Totals {
  id: string;
  brandId: string;
  number: string;
  /** The corrected invoice's month: a credit note is listed with the month it corrects. */
  period: string;
  issuedAt: Date;
  creditsInvoice: { id: string; number: string; issuedAt: Date };
}

export interface CreditNoteStore {
  /**
   * The order's invoice line no credit note takes back yet, if any (only issued or paid invoices
   * have lines): its invoice, its price, and how many of the order's lines were credited before.
   * An order is on several invoices only when re-billed (migration 0027), every line but the
   * newest credited.
   */
  openInvoiceLine(orderId: number): Promise<{
    invoiceId: string;
    priceExclTaxCents: number;
    priceCents: number;
    creditedBefore: number;
  } | null>;
  /** Next credit-note number of `year`, under the counter's row lock (held until commit). */
  nextSequence: (year: number) => Promise<number>;
  /** Inserts the credit note with one line: the order's invoice line, negated. */
  insert(note: {
    id: string;
    brandId: string;
    number: string;
    invoiceId: string;
    orderId: number;
    issuedAt: Date;
  }): Promise<void>;
  find(id: string, brandId: string | null): Promise<StoredCreditNote | null>;
  /** The sums (negative) of the credit notes of an invoice issued up to `until`. */
  creditedBy(invoiceId: string, until: Date): Promise<Totals>;
  lines(id: string): Promise<InvoiceLine[]>;
  /**
   * Newest period first, then newest number first; strictly after `after` in that order. Numbers
   * are fixed-width, so comparing them as text orders them by year, then sequence.
   */
  list(
    brandId: string,
    options: {
      after: {
        period: string;
        number: string;
      } | null;
      limit: number;
    },
  ): Promise<StoredCreditNote[]>;
}

export interface DocumentBuyer {
  name: string;
  address: string | null;
  siren: string | null;
  vatNumber: string | null;
  siret: string | null;
  /** Where the service starts (the brand's default pickup address when issued). */
  serviceAddress: string | null;
}

/** The buyer block frozen with an issued invoice or credit note (migration 0017). */
export interface DocumentBuyerStore {
  /** Copies the brand's billing details as they are now; inside the issuing transaction. */
  freeze(documentId: string, brandId: string): Promise<void>;
  /**
   * A credit note's buyer is its invoice's (it corrects that invoice, whatever the brand's details
   * became since); false when the invoice has none frozen (issued before migration 0017).
   */
  copy(fromDocumentId: string, toDocumentId: string): Promise<boolean>;
  find(documentId: string): Promise<DocumentBuyer | null>;
}
