import type { EInvoiceStatus } from '../einvoicing/einvoice-status.ts';
import { centsToEuros } from '../pricing/money.ts';
import type { ServiceCode } from '../pricing/services.ts';
import type { InvoiceLineRow, Totals } from './ports.ts';

interface InvoiceLike extends Totals {
  id: string;
  number: string | null;
  period: string;
  status: 'draft' | 'issued' | 'paid';
  issuedAt: Date | null;
  dueDate: string | null;
  paidAt: Date | null;
  /** Absent on an invoice; a credit note names the invoice it corrects. */
  creditsInvoice?: { id: string; number: string } | null;
  /** Where the issued document stands on the e-invoicing platform; absent or null: nowhere. */
  einvoice?: { status: EInvoiceStatus; reason: string | null; at: Date } | null;
}

/** The public shape of an invoice or a credit note (SPEC §6). */
export interface InvoiceJson {
  id: string;
  number: string | null;
  period: string;
  status: InvoiceLike['status'];
  currency: 'EUR';
  order_count: number;
  total_excl_tax_eur: number;
  vat_eur: number;
  total_eur: number;
  issued_at: string | null;
  due_date: string | null;
  paid_at: string | null;
  type: 'invoice' | 'credit_note';
  credits_invoice: { id: string; number: string } | null;
  einvoice_status: EInvoiceStatus | null;
  einvoice_status_reason: string | null;
  einvoice_status_at: string | null;
}

/** One line of an invoice (an order billed), as the API shows it. */
interface InvoiceLineJson {
  tracking_ref: string;
  service: ServiceCode;
  created_at: string;
  price_excl_tax_eur: number;
  vat_eur: number;
  price_eur: number;
  co2e_grams: number | null;
}

/**
 * The public shape of an invoice or a credit note (SPEC §6), shared by the API and the
 * `invoice.issued` / `credit_note.issued` webhooks. `type` and `credits_invoice` come after the
 * others, which keep their order, and the e-invoice's status after them (extension fields).
 */
export function invoiceJson(invoice: InvoiceLike): InvoiceJson {
  const credits = invoice.creditsInvoice ?? null;
  return {
    id: invoice.id,
    number: invoice.number,
    period: invoice.period,
    status: invoice.status,
    currency: 'EUR',
    order_count: invoice.orderCount,
    total_excl_tax_eur: centsToEuros(invoice.totalExclTaxCents),
    vat_eur: centsToEuros(invoice.vatCents),
    total_eur: centsToEuros(invoice.totalCents),
    issued_at: invoice.issuedAt?.toISOString() ?? null,
    due_date: invoice.dueDate,
    paid_at: invoice.paidAt?.toISOString() ?? null,
    type: credits ? 'credit_note' : 'invoice',
    credits_invoice: credits ? { id: credits.id, number: credits.number } : null,
    einvoice_status: invoice.einvoice?.status ?? null,
    einvoice_status_reason: invoice.einvoice?.reason ?? null,
    einvoice_status_at: invoice.einvoice?.at.toISOString() ?? null,
  };
}

export function invoiceLineJson(line: InvoiceLineRow): InvoiceLineJson {
  return {
    tracking_ref: line.trackingRef,
    // Copied from the order, whose table admits only the service codes.
    service: line.service as ServiceCode,
    created_at: line.createdAt.toISOString(),
    price_excl_tax_eur: centsToEuros(line.priceExclTaxCents),
    vat_eur: centsToEuros(line.vatCents),
    price_eur: centsToEuros(line.priceCents),
    co2e_grams: line.co2eGrams,
  };
}

/** The lines' CO₂e summed (those without a figure count for nothing). */
export const linesCo2eGrams = (lines: readonly InvoiceLineRow[]): number =>
  lines.reduce((sum, line) => sum + (line.co2eGrams ?? 0), 0);
