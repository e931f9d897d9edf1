import { createHash } from 'node:crypto';
import type { Outbox } from '../../events/outbox.ts';
import { parisLocalTime } from '../calendar/paris-time.ts';
import type { Stores } from '../shared/stores.ts';
import { invoiceJson } from './invoice-json.ts';
import { formatCreditNoteNumber } from './invoice-number.ts';
import type { StoredCreditNote } from './ports.ts';

/**
 * Credit notes (factures d'avoir, SPEC §6). An issued invoice never changes; an order on one that is
 * cancelled afterwards (it was still `pending` when its month was issued) is credited by a credit
 * note of its own, issued at once rather than accrued until the next monthly run: the brand sees
 * the correction when it happens, and every credit note references exactly one invoice.
 * A billed order re-priced afterwards (a new delivery address) is corrected the same way: the
 * credit note takes back its invoice line, and the order is billed again, at its new price, on
 * the invoice of the month of the change (issue #23).
 */

/**
 * Derived from the order, like an invoice's id from its month: one order, one credit note id — per
 * invoice line of the order, `earlier` counting those credited before (a re-billed order has more
 * than one; the first keeps the id it always had).
 */
export function creditNoteIdFor(brandId: string, orderId: number, earlier = 0): string {
  const key =
    earlier === 0 ? `credit_note|${brandId}|${orderId}` : `credit_note|${brandId}|${orderId}|${earlier}`;
  return `inv_${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/** The credit note as the invoice list and detail show it (amounts negative, status `issued`). */
export function creditNoteAsInvoice(note: StoredCreditNote) {
  return {
    ...note,
    status: 'issued' as const,
    // Nothing is due on a credit note: it reduces what its invoice asks, or is refunded.
    dueDate: null,
    paidAt: null,
  };
}

type CreditTx = Pick<Stores, 'creditNotes' | 'documentBuyers' | 'einvoices' | 'outbox'>;
type OpenLine = NonNullable<Awaited<ReturnType<Stores['creditNotes']['openInvoiceLine']>>>;

/**
 * Issues the credit note for an order just cancelled, inside the cancellation's transaction `tx`;
 * null when the order is on no issued invoice (cancelled before its month was issued, or never
 * billed), or only on lines already credited (re-billed, its new month not issued yet). Issuing
 * locks the orders it bills (invoices-repository), so an order cannot be cancelled between being
 * read for an invoice and that invoice's lines becoming visible here. `credit_note_lines` holds an
 * invoice line once: a second credit note for one line cannot be written.
 */
export async function creditCancelledOrder(
  tx: CreditTx,
  outbox: Outbox,
  /** `outbox.jobsFor(brand, 'credit_note.issued')`, read before the transaction opened. */
  listeners: readonly string[],
  order: { id: number; brandId: string },
  at: Date,
): Promise<StoredCreditNote | null> {
  const line = await tx.creditNotes.openInvoiceLine(order.id);
  return line ? issueCreditNote(tx, outbox, listeners, order, line, at) : null;
}

/**
 * The operator's own correction (a billing mistake, a goodwill gesture: the console's Finance page),
 * inside `tx`: credits the order's line on `invoiceId` unless a credit note takes it back already.
 * Null when the order has no such line left; the order itself is not changed (it stays billed as
 * it was, and is not billed again).
 */
export async function creditInvoicedOrder(
  tx: CreditTx,
  outbox: Outbox,
  /** `outbox.jobsFor(brand, 'credit_note.issued')`, read before the transaction opened. */
  listeners: readonly string[],
  order: { id: number; brandId: string },
  invoiceId: string,
  at: Date,
): Promise<StoredCreditNote | null> {
  const line = await tx.creditNotes.openInvoiceLine(order.id);
  return line && line.invoiceId === invoiceId
    ? issueCreditNote(tx, outbox, listeners, order, line, at)
    : null;
}

/**
 * After a pending order's price changed (a new delivery address), inside the change's transaction
 * `tx`, written after the order's row: when an issued invoice bills it at another price, credits
 * that line and bills the order again from `at`, at its new price. Null when nothing is to correct:
 * no issued line (the running month's draft is read from the order), or the same price.
 */
export async function rebillRepricedOrder(
  tx: CreditTx & Pick<Stores, 'orders'>,
  outbox: Outbox,
  /** `outbox.jobsFor(brand, 'credit_note.issued')`, read before the transaction opened. */
  listeners: readonly string[],
  order: { id: number; brandId: string; priceExclTaxCents: number | null; priceCents: number | null },
  at: Date,
): Promise<StoredCreditNote | null> {
  const line = await tx.creditNotes.openInvoiceLine(order.id);
  if (!line || (line.priceCents === order.priceCents && line.priceExclTaxCents === order.priceExclTaxCents)) {
    return null;
  }
  const note = await issueCreditNote(tx, outbox, listeners, order, line, at);
  await tx.orders.rebill(order.id, at);
  return note;
}

async function issueCreditNote(
  tx: CreditTx,
  outbox: Outbox,
  listeners: readonly string[],
  order: { id: number; brandId: string },
  line: OpenLine,
  at: Date,
): Promise<StoredCreditNote> {
  const repo = tx.creditNotes;
  const year = Number(parisLocalTime(at).date.slice(0, 4));
  const id = creditNoteIdFor(order.brandId, order.id, line.creditedBefore);
  const number = formatCreditNoteNumber(year, await repo.nextSequence(year));
  await repo.insert({
    id,
    brandId: order.brandId,
    number,
    invoiceId: line.invoiceId,
    orderId: order.id,
    issuedAt: at,
  });
  if (!(await tx.documentBuyers.copy(line.invoiceId, id))) await tx.documentBuyers.freeze(id, order.brandId);
  // A credit note follows its invoice: an e-invoice's is one too (docs/einvoicing.md); one of an
  // invoice issued before e-invoicing stays a PDF, as its invoice is.
  const einvoiced = (await tx.einvoices.find(line.invoiceId)) !== null;
  if (einvoiced) await tx.einvoices.queueSubmission({ documentId: id, brandId: order.brandId, number, at });
  const note = (await repo.find(id, order.brandId))!;
  const event = outbox.eventWith(listeners, order.brandId, 'credit_note.issued', at, () => ({
    credit_note: invoiceJson({
      ...creditNoteAsInvoice(note),
      einvoice: einvoiced ? { status: 'pending' as const, reason: null, at } : null,
    }),
  }));
  if (event) await tx.outbox.append(event);
  return note;
}
