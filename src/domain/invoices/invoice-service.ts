import { createHash } from 'node:crypto';
import { type Pool, withTransaction } from '../../db/pool.ts';
import {
  type InvoiceLineRow,
  invoicesRepository,
  type Totals,
} from '../../db/repositories/invoices-repository.ts';
import { AppError, invalidField, validateAll } from '../../errors.ts';
import type { BrandService } from '../brands/brand-service.ts';
import { parisLocalTime } from '../calendar/paris-time.ts';
import { prefixedId } from '../ids.ts';
import { billingPeriodOf, dueDateFor, parsePeriod, periodBounds, previousPeriod } from './billing-period.ts';
import { type InvoiceJson, invoiceJson } from './invoice-json.ts';
import { formatInvoiceNumber } from './invoice-number.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import type { SellerIdentity } from './seller.ts';

export const INVOICE_STATUSES = ['draft', 'issued', 'paid'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface Invoice extends Totals {
  id: string;
  brandId: string;
  number: string | null;
  period: string;
  status: InvoiceStatus;
  issuedAt: Date | null;
  dueDate: string | null;
  paidAt: Date | null;
}

/**
 * An invoice's id is derived from its brand and month, so the running draft and the invoice it
 * becomes share one id (a link to the draft keeps working once issued).
 */
export function invoiceIdFor(brandId: string, period: string): string {
  return `inv_${createHash('sha256').update(`${brandId}|${period}`).digest('hex').slice(0, 16)}`;
}

const CURSOR_PREFIX = 'i1.';
const encodeCursor = (period: string) => Buffer.from(`${CURSOR_PREFIX}${period}`).toString('base64url');
function decodeCursor(cursor: string): string {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const period = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : '';
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period))
    throw invalidField('cursor', 'is not a cursor returned by this API');
  return period;
}

/** Monthly billing (SPEC §6): running drafts, issuing with gap-free numbers, payment, PDF. */
export function invoiceService(deps: {
  pool: Pool;
  brands: BrandService;
  clock: () => Date;
  seller: Readonly<SellerIdentity>;
}) {
  const { pool, brands, clock, seller } = deps;
  const invoices = invoicesRepository(pool);

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
      if (stored) return { invoice: stored, lines: await invoices.issuedLines(stored.id) };
      if (brandId) {
        const draft = (await drafts(brandId)).find((d) => d.id === id);
        if (draft) {
          const { start, end } = periodBounds(draft.period);
          return { invoice: draft, lines: await invoices.billableLines(brandId, start, end) };
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
  async function issueFor(brandId: string, period: string, issuedAt: Date): Promise<Invoice | null> {
    const { start, end } = periodBounds(period);
    return withTransaction(pool, async (client) => {
      const repo = invoicesRepository(client);
      // One issuer per (brand, month): a second one waits, then finds the invoice and stops.
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `invoice:${brandId}:${period}`,
      ]);
      if (await repo.findByPeriod(brandId, period)) return null;
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
      const invoice = (await repo.find(id, brandId))!;
      await repo.enqueueIssuedEvent({
        id: prefixedId('msg', 12),
        brandId,
        data: { invoice: invoiceJson(invoice) },
        at: issuedAt,
      });
      return invoice;
    });
  }

  /**
   * Issues every brand's invoice for `month` (YYYY-MM, Europe/Paris). Idempotent: brands already
   * invoiced for that month are skipped, so running it twice issues nothing new. A month that is
   * not over yet cannot be issued.
   */
  async function issueMonth(month: string) {
    const period = parsePeriod(month);
    const now = clock();
    if (period >= billingPeriodOf(now)) {
      throw invalidField('month', `${period} is not over yet; only past months can be issued`);
    }
    const { start, end } = periodBounds(period);
    const issued: Invoice[] = [];
    for (const brandId of await invoices.brandsToInvoice(period, start, end)) {
      const invoice = await issueFor(brandId, period, now);
      if (invoice) issued.push(invoice);
    }
    return { period, issued };
  }

  return {
    async list(brandId: string, options: { status?: string; limit?: number; cursor?: string }) {
      const { status, limit, before } = validateAll({
        status: () => {
          if (options.status === undefined) return null;
          if (!(INVOICE_STATUSES as readonly string[]).includes(options.status)) {
            throw invalidField('status', `must be one of ${INVOICE_STATUSES.join(', ')}`);
          }
          return options.status as InvoiceStatus;
        },
        limit: () => {
          const limit = options.limit ?? 50;
          if (!Number.isInteger(limit) || limit < 1 || limit > 200)
            throw invalidField('limit', 'must be an integer from 1 to 200');
          return limit;
        },
        before: () => (options.cursor === undefined ? null : decodeCursor(options.cursor)),
      });
      const pending = status === null || status === 'draft' ? await drafts(brandId) : [];
      const stored =
        status === 'draft'
          ? []
          : await invoices.list(brandId, { status, beforePeriod: before, limit: limit + 1 });
      const all = [...pending.filter((d) => before === null || d.period < before), ...stored]
        .sort((a, b) => (a.period < b.period ? 1 : -1))
        .slice(0, limit + 1);
      const more = all.length > limit;
      const page = more ? all.slice(0, limit) : all;
      return { invoices: page, nextCursor: more ? encodeCursor(page[page.length - 1]!.period) : null };
    },

    get: (brandId: string, id: string) => find(brandId, id),

    async pdf(brandId: string, id: string): Promise<{ invoice: Invoice; pdf: Buffer }> {
      const { invoice, lines } = await find(brandId, id);
      const brand = await brands.get(brandId);
      const pdf = await renderInvoicePdf({
        number: invoice.number ?? '',
        period: invoice.period,
        issuedAt: invoice.issuedAt ?? clock(),
        dueDate: invoice.dueDate ?? dueDateFor(clock()),
        status: invoice.status,
        seller,
        buyer: { name: brand.name, id: brand.id, address: brand.defaultPickupAddress },
        lines: lines.map((l) => ({ ...l })),
        totals: {
          orderCount: invoice.orderCount,
          totalExclTaxCents: invoice.totalExclTaxCents,
          vatCents: invoice.vatCents,
          totalCents: invoice.totalCents,
        },
        currency: 'EUR',
      });
      return { invoice, pdf };
    },

    issueMonth,

    /** The scheduled job: on (or after) the 1st, the previous month is issued. */
    issueDue: () => issueMonth(previousPeriod(clock())),

    async markPaid(id: string): Promise<Invoice> {
      if (/^inv_[0-9a-f]{16}$/.test(id) && !(await invoices.find(id, null))) await refuseDraft(id);
      const { invoice } = await find(null, id);
      if (invoice.status === 'paid') return invoice;
      if (!(await invoices.markPaid(invoice.id, clock()))) {
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

export type InvoiceService = ReturnType<typeof invoiceService>;
