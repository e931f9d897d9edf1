import { createHash } from 'node:crypto';
import { AppError, invalidField, validateAll } from '../../errors.ts';
import type { Outbox } from '../../events/outbox.ts';
import { type Author, systemAuthor } from '../audit/actor.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { heldBecause, type MissingCompanyData, missingForInvoicing } from '../brands/company-readiness.ts';
import { parisLocalTime, parisToday } from '../calendar/paris-time.ts';
import { ciiXml } from '../einvoicing/cii-xml.ts';
import { type EInvoiceDocument, eInvoiceDocument } from '../einvoicing/e-invoice.ts';
import type { EInvoiceStatusStep, PaymentAmount } from '../einvoicing/ports.ts';
import { normaliseTrackingRef } from '../orders/tracking-ref.ts';
import type { CursorCodec } from '../pagination/cursor.ts';
import type { Clock } from '../shared/clock.ts';
import type { Stores, Transact } from '../shared/stores.ts';
import { billingPeriodOf, dueDateFor, parsePeriod, periodBounds, previousPeriod } from './billing-period.ts';
import { creditInvoicedOrder, creditNoteAsInvoice } from './credit-notes.ts';
import { type InvoiceJson, invoiceJson } from './invoice-json.ts';
import {
  comesAfter,
  formatPosition,
  invoicesBefore,
  newestFirst,
  parsePosition,
  positionOf,
} from './invoice-list.ts';
import { formatInvoiceNumber } from './invoice-number.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import type { InvoiceLineRow, StoredCreditNote, Totals } from './ports.ts';
import type { SellerIdentity } from './seller.ts';

export const INVOICE_STATUSES = ['draft', 'issued', 'paid'] as const;
type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const INVOICE_TYPES = ['invoice', 'credit_note'] as const;
type InvoiceType = (typeof INVOICE_TYPES)[number];

export interface Invoice extends Totals {
  id: string;
  brandId: string;
  number: string | null;
  period: string;
  status: InvoiceStatus;
  issuedAt: Date | null;
  dueDate: string | null;
  paidAt: Date | null;
  /** Set on a credit note only: the invoice it corrects. */
  creditsInvoice?: { id: string; number: string; issuedAt: Date } | null;
  /** Where the issued document stands on the e-invoicing platform; null for a draft or a document issued before e-invoicing. */
  einvoice?: EInvoiceStatusStep | null;
}

/**
 * An invoice's id is derived from its brand and month, so the running draft and the invoice it
 * becomes share one id (a link to the draft keeps working once issued).
 */
export function invoiceIdFor(brandId: string, period: string): string {
  return `inv_${createHash('sha256').update(`${brandId}|${period}`).digest('hex').slice(0, 16)}`;
}

/** A brand whose month could not be issued: what its e-invoice lacks (company-readiness.ts). */
interface HeldInvoice {
  brandId: string;
  brandName: string;
  missing: MissingCompanyData[];
  /** The sentence the CLI, the ops API and the job's log give. */
  reason: string;
}

/** An issuing run: the month, the invoices it issued and the brands it had to hold. */
interface IssuedMonth {
  period: string;
  issued: Invoice[];
  held: HeldInvoice[];
}

/** An issued document as a Factur-X: its PDF/A-3, its XML and the EN 16931 document both say. */
export interface FacturX {
  invoice: Invoice;
  pdf: Buffer;
  xml: string;
  document: EInvoiceDocument;
}

/** Monthly billing (SPEC §6): running drafts, issuing with gap-free numbers, payment, PDF. */
export interface InvoiceService {
  /** Invoices and credit notes in list order (invoice-list.ts), `limit` at a time. */
  list(
    brandId: string,
    options: { status?: string; type?: string; limit?: number; cursor?: string },
  ): Promise<{ invoices: Invoice[]; nextCursor: string | null }>;
  get(brandId: string, id: string): Promise<{ invoice: Invoice; lines: InvoiceLineRow[] }>;
  /** The operator's: an issued invoice or credit note of any brand (drafts belong to their brand's view). */
  getAny(id: string): Promise<{ invoice: Invoice; lines: InvoiceLineRow[] }>;
  /** An issued document's PDF is its Factur-X (PDF/A-3 with its XML); a draft's is a proforma. */
  pdf(brandId: string, id: string): Promise<{ invoice: Invoice; pdf: Buffer }>;
  /** An issued invoice or credit note of any brand as a Factur-X (the platform's transmission). */
  facturX(id: string): Promise<FacturX>;
  /**
   * Issues the month for every brand with billable orders; a brand lacking what an e-invoice needs
   * is held (not issued, no number used) and listed with the reason, and issued by a later run. Each
   * invoice issued is recorded in the audit trail (`invoice.issued`) in its own transaction.
   */
  issueMonth(month: string, by: Author): Promise<IssuedMonth>;
  /** The scheduled job: on (or after) the 1st, the previous month is issued (by `system`). */
  issueDue(): Promise<IssuedMonth>;
  /**
   * Marks paid, recorded in the audit trail (`invoice.paid`) with the change; without the
   * VAT-on-debits option, the payment data of an e-invoice is queued for the platform.
   */
  markPaid(id: string, by: Author): Promise<Invoice>;
  /**
   * A credit note for one order of an issued (or paid) invoice, at the operator's request (a
   * billing mistake, a goodwill gesture): the order's line taken back, numbered in the year's
   * credit-note sequence, announced (`credit_note.issued`) and recorded in the audit trail in one
   * transaction. An order credited already, or not on the invoice, is refused (422).
   */
  creditOrder(invoiceId: string, trackingRef: string, by: Author): Promise<StoredCreditNote>;
  json(invoice: Invoice): InvoiceJson;
}

export function invoiceService(deps: {
  stores: Pick<Stores, 'invoices' | 'creditNotes' | 'documentBuyers' | 'einvoices'>;
  transact: Transact;
  outbox: Outbox;
  brands: BrandService;
  clock: Clock;
  seller: Readonly<SellerIdentity>;
  /** EINVOICE_VAT_ON_DEBITS: VAT due at invoicing (no payment data to report) rather than when paid. */
  vatOnDebits: boolean;
  cursors: { ready(): Promise<CursorCodec> };
}): InvoiceService {
  const { transact, outbox, brands, clock, seller, vatOnDebits } = deps;
  const { invoices, creditNotes, einvoices } = deps.stores;

  /** Each document with where it stands on the e-invoicing platform (drafts have nothing there). */
  async function withEInvoices(list: Invoice[]): Promise<Invoice[]> {
    const ids = list.filter((i) => i.status !== 'draft').map((i) => i.id);
    const statuses = ids.length > 0 ? await einvoices.statusesOf(ids) : new Map<string, EInvoiceStatusStep>();
    return list.map((invoice) => ({ ...invoice, einvoice: statuses.get(invoice.id) ?? null }));
  }

  /** The months still accruing or awaiting issue: the current one and the previous one. */
  async function drafts(brandId: string): Promise<Invoice[]> {
    const now = clock();
    const result: Invoice[] = [];
    for (const period of [billingPeriodOf(now), previousPeriod(now)]) {
      if (await invoices.findByPeriod(brandId, period)) continue;
      const { start, end } = periodBounds(period);
      const totals = await invoices.billableTotals(brandId, start, end);
      // An empty previous month has nothing to show; the current month always has its draft.
      if (totals.orderCount === 0 && period !== billingPeriodOf(now)) continue;
      result.push({
        id: invoiceIdFor(brandId, period),
        brandId,
        number: null,
        period,
        status: 'draft',
        issuedAt: null,
        dueDate: null,
        paidAt: null,
        ...totals,
      });
    }
    return result;
  }

  async function find(
    brandId: string | null,
    id: string,
  ): Promise<{ invoice: Invoice; lines: InvoiceLineRow[] }> {
    if (/^inv_[0-9a-f]{16}$/.test(id)) {
      const stored = await invoices.find(id, brandId);
      if (stored) {
        const [invoice] = await withEInvoices([stored]);
        return { invoice: invoice!, lines: await invoices.issuedLines(stored.id) };
      }
      const credit = await creditNotes.find(id, brandId);
      if (credit) {
        const [invoice] = await withEInvoices([creditNoteAsInvoice(credit)]);
        return { invoice: invoice!, lines: await creditNotes.lines(credit.id) };
      }
      if (brandId) {
        const draft = (await drafts(brandId)).find((d) => d.id === id);
        if (draft) {
          const { start, end } = periodBounds(draft.period);
          return {
            invoice: { ...draft, einvoice: null },
            lines: await invoices.billableLines(brandId, start, end),
          };
        }
      }
    }
    throw new AppError('not_found', `No invoice with id "${id}".`);
  }

  /**
   * A draft is not stored, but its id is derived from its brand and month: an operator paying one
   * (before it is issued) is told so, rather than that no such invoice exists.
   */
  async function refuseDraft(id: string): Promise<void> {
    const now = clock();
    const current = billingPeriodOf(now);
    for (const brand of await brands.list()) {
      for (const period of [current, previousPeriod(now)]) {
        if (invoiceIdFor(brand.id, period) !== id) continue;
        const when =
          period === current
            ? `it is issued once ${period} is over`
            : `issue it with "dlv invoices issue --month ${period}"`;
        throw new AppError(
          'invalid_transition',
          `Invoice ${id} is a draft: it cannot be marked paid until it is issued (the ${period} invoice of brand ${brand.id}; ${when}).`,
        );
      }
    }
  }

  /** Issues one brand's month in one transaction; null when already issued or nothing to bill. */
  async function issueFor(
    brandId: string,
    period: string,
    issuedAt: Date,
    by: Author,
  ): Promise<Invoice | null> {
    const { start, end } = periodBounds(period);
    // Read before the transaction: a connection it holds never waits for another from the pool.
    const listeners = await outbox.jobsFor(brandId, 'invoice.issued');
    return transact(async (tx) => {
      const repo = tx.invoices;
      await repo.lockPeriod(brandId, period);
      if (await repo.findByPeriod(brandId, period)) return null;
      await repo.lockBillable(brandId, start, end);
      const totals = await repo.billableTotals(brandId, start, end);
      if (totals.orderCount === 0) return null;
      const year = Number(parisLocalTime(issuedAt).date.slice(0, 4));
      const number = formatInvoiceNumber(year, await repo.nextSequence(year));
      const id = invoiceIdFor(brandId, period);
      await repo.insertIssued({
        id,
        brandId,
        period,
        number,
        issuedAt,
        dueDate: dueDateFor(issuedAt),
        start,
        end,
      });
      await tx.documentBuyers.freeze(id, brandId);
      await tx.einvoices.queueSubmission({ documentId: id, brandId, number, at: issuedAt });
      const invoice: Invoice = {
        ...(await repo.find(id, brandId))!,
        einvoice: { status: 'pending', reason: null, at: issuedAt },
      };
      const event = outbox.eventWith(listeners, brandId, 'invoice.issued', issuedAt, () => ({
        invoice: invoiceJson(invoice),
      }));
      if (event) await tx.outbox.append(event);
      await tx.audit.record({
        action: 'invoice.issued',
        by,
        object: { type: 'invoice', id },
        brandId,
        changes: { status: { before: 'draft', after: 'issued' }, number: { before: null, after: number } },
        details: { period, orders: invoice.orderCount, total_cents: invoice.totalCents },
      });
      return invoice;
    });
  }

  /**
   * Issues every brand's invoice for `month` (YYYY-MM, Europe/Paris). Idempotent: brands already
   * invoiced for that month are skipped, so running it twice issues nothing new. A month that is
   * not over yet cannot be issued.
   */
  async function issueMonth(month: string, by: Author) {
    const period = parsePeriod(month);
    const now = clock();
    if (period >= billingPeriodOf(now)) {
      throw invalidField('month', `${period} is not over yet; only past months can be issued`);
    }
    const { start, end } = periodBounds(period);
    const issued: Invoice[] = [];
    const held: HeldInvoice[] = [];
    for (const brandId of await invoices.brandsToInvoice(period, start, end)) {
      const brand = await brands.get(brandId);
      const missing = missingForInvoicing(brand);
      if (missing.length > 0) {
        held.push({ brandId, brandName: brand.name, missing, reason: heldBecause(brandId, missing) });
        continue;
      }
      const invoice = await issueFor(brandId, period, now, by);
      if (invoice) issued.push(invoice);
    }
    return { period, issued, held };
  }

  /** What the PDF and the Factur-X are drawn from: the document, its lines, its buyer. */
  async function render(invoice: Invoice, lines: InvoiceLineRow[], withFacturX: boolean) {
    const brand = await brands.get(invoice.brandId);
    // An issued document shows the buyer as it was when issued; a draft, the current details.
    const frozen = invoice.status === 'draft' ? null : await deps.stores.documentBuyers.find(invoice.id);
    const buyer = frozen
      ? { id: brand.id, ...frozen }
      : {
          name: brand.legalName ?? brand.name,
          id: brand.id,
          address: brand.billingAddress ?? brand.defaultPickupAddress,
          siren: brand.siren,
          siret: brand.siret,
          vatNumber: brand.vatNumber,
          serviceAddress: brand.defaultPickupAddress,
        };
    const credits = invoice.creditsInvoice;
    const totals = {
      orderCount: invoice.orderCount,
      totalExclTaxCents: invoice.totalExclTaxCents,
      vatCents: invoice.vatCents,
      totalCents: invoice.totalCents,
    };
    const document =
      withFacturX && invoice.number !== null && invoice.issuedAt !== null
        ? eInvoiceDocument({
            kind: credits ? 'credit_note' : 'invoice',
            number: invoice.number,
            period: invoice.period,
            issuedAt: invoice.issuedAt,
            dueDate: invoice.dueDate,
            seller,
            buyer,
            pickupAddress: buyer.serviceAddress,
            lines,
            totals,
            creditedInvoice: credits ? { number: credits.number, issuedAt: credits.issuedAt } : null,
            vatOnDebits,
          })
        : null;
    const xml = document ? ciiXml(document) : null;
    const pdf = await renderInvoicePdf({
      number: invoice.number ?? '',
      period: invoice.period,
      issuedAt: invoice.issuedAt ?? clock(),
      dueDate: invoice.dueDate ?? dueDateFor(clock()),
      status: invoice.status,
      seller,
      buyer,
      lines: lines.map((l) => ({ ...l })),
      totals,
      currency: 'EUR',
      vatOnDebits,
      ...(document && xml ? { eInvoice: { document, xml } } : {}),
      ...(credits
        ? { creditNote: { invoiceNumber: credits.number, invoiceIssuedAt: credits.issuedAt } }
        : {}),
    });
    return { pdf, xml, document };
  }

  return {
    async list(
      brandId: string,
      options: { status?: string; type?: string; limit?: number; cursor?: string },
    ) {
      const cursors = await deps.cursors.ready();
      // Bound to the brand and the filters: a cursor of another list, brand or filter is refused.
      const scope = { list: 'invoices', brandId, filter: `${options.status ?? ''}|${options.type ?? ''}` };
      const { status, type, limit, after } = validateAll({
        status: () => {
          if (options.status === undefined) return null;
          if (!(INVOICE_STATUSES as readonly string[]).includes(options.status)) {
            throw invalidField('status', `must be one of ${INVOICE_STATUSES.join(', ')}`);
          }
          return options.status as InvoiceStatus;
        },
        type: () => {
          if (options.type === undefined) return null;
          if (!(INVOICE_TYPES as readonly string[]).includes(options.type)) {
            throw invalidField('type', `must be one of ${INVOICE_TYPES.join(', ')}`);
          }
          return options.type as InvoiceType;
        },
        limit: () => {
          const limit = options.limit ?? 50;
          if (!Number.isInteger(limit) || limit < 1 || limit > 200)
            throw invalidField('limit', 'must be an integer from 1 to 200');
          return limit;
        },
        after: () =>
          options.cursor === undefined ? null : parsePosition(cursors.decode(scope, options.cursor)),
      });
      const withInvoices = type !== 'credit_note';
      // A credit note is always `issued`: nothing is paid on it.
      const withCredits = type !== 'invoice' && (status === null || status === 'issued');
      const pending = withInvoices && (status === null || status === 'draft') ? await drafts(brandId) : [];
      const stored =
        withInvoices && status !== 'draft'
          ? await invoices.list(brandId, {
              status,
              beforePeriod: after === null ? null : invoicesBefore(after),
              limit: limit + 1,
            })
          : [];
      const credits = withCredits
        ? (
            await creditNotes.list(brandId, {
              after: after === null ? null : { period: after.period, number: after.key },
              limit: limit + 1,
            })
          ).map(creditNoteAsInvoice)
        : [];
      const all: Invoice[] = [...pending, ...stored, ...credits]
        .filter((item) => after === null || comesAfter(positionOf(item), after))
        .sort((a, b) => newestFirst(positionOf(a), positionOf(b)))
        .slice(0, limit + 1);
      const more = all.length > limit;
      const page = more ? all.slice(0, limit) : all;
      return {
        invoices: await withEInvoices(page),
        nextCursor: more ? cursors.encode(scope, formatPosition(positionOf(page[page.length - 1]!))) : null,
      };
    },

    get: (brandId: string, id: string) => find(brandId, id),

    getAny: (id: string) => find(null, id),

    async pdf(brandId: string, id: string): Promise<{ invoice: Invoice; pdf: Buffer }> {
      const { invoice, lines } = await find(brandId, id);
      // Documents issued before e-invoicing (no transmission) stay the PDFs they were.
      const { pdf } = await render(invoice, lines, invoice.einvoice != null);
      return { invoice, pdf };
    },

    async facturX(id: string): Promise<FacturX> {
      const { invoice, lines } = await find(null, id);
      const { pdf, xml, document } = await render(invoice, lines, true);
      if (!xml || !document)
        throw new AppError('invalid_transition', `${id} is not issued: it has no Factur-X.`);
      return { invoice, pdf, xml, document };
    },

    issueMonth,

    issueDue: () => issueMonth(previousPeriod(clock()), systemAuthor('invoices_issue_due')),

    async creditOrder(invoiceId: string, trackingRef: string, by: Author): Promise<StoredCreditNote> {
      const { invoice } = await find(null, invoiceId);
      if (invoice.creditsInvoice)
        throw new AppError(
          'invalid_transition',
          `${invoice.number} is a credit note: only an invoice is credited.`,
        );
      const ref = normaliseTrackingRef(trackingRef);
      if (!ref) throw invalidField('order', 'must be a tracking reference of the invoice');
      // Read before the transaction: a connection it holds never waits for another from the pool.
      const listeners = await outbox.jobsFor(invoice.brandId, 'credit_note.issued');
      return transact(async (tx) => {
        const order = await tx.orders.findByRef(ref, invoice.brandId);
        if (!order) throw invalidField('order', `${ref} is not an order of ${invoice.number}'s brand`);
        const note = await creditInvoicedOrder(tx, outbox, listeners, order, invoice.id, clock());
        if (!note)
          throw new AppError(
            'invalid_transition',
            `${ref} is not on invoice ${invoice.number}, or a credit note takes it back already.`,
          );
        await tx.audit.record({
          action: 'credit_note.issued',
          by,
          object: { type: 'credit_note', id: note.id },
          brandId: invoice.brandId,
          orderRefs: [ref],
          changes: { number: { before: null, after: note.number } },
          details: { invoice_id: invoice.id, total_cents: note.totalCents, requested_by: 'operator' },
        });
        return note;
      });
    },

    async markPaid(id: string, by: Author): Promise<Invoice> {
      if (/^inv_[0-9a-f]{16}$/.test(id) && !(await invoices.find(id, null))) await refuseDraft(id);
      const { invoice } = await find(null, id);
      if (invoice.creditsInvoice) {
        throw new AppError(
          'invalid_transition',
          `${invoice.number} is a credit note: it is not paid. It reduces what invoice ${invoice.creditsInvoice.number} asks, or is refunded if that invoice is already paid.`,
        );
      }
      if (invoice.status === 'paid') return invoice;
      const at = clock();
      const paid = await transact(async (tx) => {
        if (!(await tx.invoices.markPaid(invoice.id, at))) return false;
        await tx.audit.record({
          action: 'invoice.paid',
          by,
          object: { type: 'invoice', id: invoice.id },
          brandId: invoice.brandId,
          changes: {
            status: { before: invoice.status, after: 'paid' },
            paid_at: { before: null, after: at.toISOString() },
          },
          details: { number: invoice.number },
        });
        // Services without the debits option: VAT is due when paid, so the platform is told what was
        // paid, per VAT rate (an invoice issued before e-invoicing has no transmission: nothing to tell).
        if (!vatOnDebits && invoice.einvoice != null) {
          await tx.einvoices.queuePaymentReport({
            invoiceId: invoice.id,
            brandId: invoice.brandId,
            paidOn: parisToday(at),
            amounts: paidAmounts(invoice, await tx.creditNotes.creditedBy(invoice.id, at)),
            at,
          });
        }
        return true;
      });
      if (!paid) {
        throw new AppError(
          'invalid_transition',
          `Invoice ${id} cannot be marked paid from "${invoice.status}".`,
        );
      }
      return (await find(null, id)).invoice;
    },

    json: (invoice: Invoice): InvoiceJson => invoiceJson(invoice),
  };
}

/**
 * What a paid invoice's payment was, per VAT rate: the invoice less its credit notes issued by then
 * (they are deducted from what is paid). Deliveries carry one rate, 20 %.
 */
function paidAmounts(invoice: Totals, credited: Totals): PaymentAmount[] {
  return [
    {
      ratePercent: 20,
      taxableCents: invoice.totalExclTaxCents + credited.totalExclTaxCents,
      vatCents: invoice.vatCents + credited.vatCents,
      totalCents: invoice.totalCents + credited.totalCents,
    },
  ];
}
