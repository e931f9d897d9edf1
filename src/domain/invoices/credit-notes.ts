import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/pool.ts';
import {
  creditNotesRepository,
  type StoredCreditNote,
} from '../../db/repositories/credit-notes-repository.ts';
import { parisLocalTime } from '../calendar/paris-time.ts';
import { prefixedId } from '../ids.ts';
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
 * Issues the credit note for an order just cancelled, inside the cancellation's transaction `db`;
 * null when the order is on no issued invoice (cancelled before its month was issued, or never
 * billed). Issuing locks the orders it bills (invoices-repository), so an order cannot be
 * cancelled between being read for an invoice and that invoice's lines becoming visible here.
 * `credit_note_lines.order_id` is unique: a second credit note for one order cannot be written.
 */
export async function creditCancelledOrder(
  db: Queryable,
  order: { id: number; brandId: string },
  at: Date,
): Promise<StoredCreditNote | null> {
  const repo = creditNotesRepository(db);
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
  const note = (await repo.find(id, order.brandId))!;
  await repo.enqueueIssuedEvent({
    id: prefixedId('msg', 12),
    brandId: order.brandId,
    data: { credit_note: invoiceJson(creditNoteAsInvoice(note)) },
    at,
  });
  return note;
}
