import { createHash } from 'node:crypto';
import type { StoredCreditNote } from '../../db/repositories/credit-notes-repository.ts';
import type { Stores } from '../../db/stores.ts';
import type { Outbox } from '../../events/outbox.ts';
import { parisLocalTime } from '../calendar/paris-time.ts';
import { invoiceJson } from './invoice-json.ts';
import { formatCreditNoteNumber } from './invoice-number.ts';

/**
 * Credit notes (factures d'avoir, SPEC §6). An issued invoice never changes; an order on one that is
 * cancelled afterwards (it was still `pending` when its month was issued) is credited by a credit
 * note of its own, issued at once rather than accrued until the next monthly run: the brand sees
 * the correction when it happens, and every credit note references exactly one invoice.
 */

/** Derived from the order, like an invoice's id from its month: one order, one credit note id. */
export function creditNoteIdFor(brandId: string, orderId: number): string {
  return `inv_${createHash('sha256').update(`credit_note|${brandId}|${orderId}`).digest('hex').slice(0, 16)}`;
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

/**
 * Issues the credit note for an order just cancelled, inside the cancellation's transaction `tx`;
 * null when the order is on no issued invoice (cancelled before its month was issued, or never
 * billed). Issuing locks the orders it bills (invoices-repository), so an order cannot be
 * cancelled between being read for an invoice and that invoice's lines becoming visible here.
 * `credit_note_lines.order_id` is unique: a second credit note for one order cannot be written.
 */
export async function creditCancelledOrder(
  tx: Pick<Stores, 'creditNotes' | 'documentBuyers' | 'outbox'>,
  outbox: Outbox,
  /** `outbox.jobsFor(brand, 'credit_note.issued')`, read before the transaction opened. */
  listeners: readonly string[],
  order: { id: number; brandId: string },
  at: Date,
): Promise<StoredCreditNote | null> {
  const repo = tx.creditNotes;
  const invoice = await repo.invoiceBilling(order.id);
  if (!invoice) return null;
  const year = Number(parisLocalTime(at).date.slice(0, 4));
  const id = creditNoteIdFor(order.brandId, order.id);
  await repo.insert({
    id,
    brandId: order.brandId,
    number: formatCreditNoteNumber(year, await repo.nextSequence(year)),
    invoiceId: invoice.id,
    orderId: order.id,
    issuedAt: at,
  });
  await tx.documentBuyers.freeze(id, order.brandId);
  const note = (await repo.find(id, order.brandId))!;
  const event = outbox.eventWith(listeners, order.brandId, 'credit_note.issued', at, () => ({
    credit_note: invoiceJson(creditNoteAsInvoice(note)),
  }));
  if (event) await tx.outbox.append(event);
  return note;
}
