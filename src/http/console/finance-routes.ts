import type { FastifyInstance, FastifyRequest } from 'fastify';
import { consoleReadsRepository } from '../../db/repositories/console-reads-repository.ts';
import { parisToday } from '../../domain/calendar/paris-time.ts';
import type { ConsoleReads } from '../../domain/console/ports.ts';
import { normaliseTrackingRef } from '../../domain/orders/tracking-ref.ts';
import { isAppError } from '../../errors.ts';
import { query, text } from '../account/form.ts';
import { authorOf } from '../shared/author.ts';
import { html, type SafeHtml } from '../shared/html.ts';
import { needs, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import {
  CONSOLE_PATH,
  type ConsoleContext,
  csrfField,
  errorNote,
  layout,
  may,
  successNote,
  when,
} from './views/layout.ts';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

function euros(ctx: ConsoleContext, cents: number): string {
  return new Intl.NumberFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    style: 'currency',
    currency: 'EUR',
  }).format(cents / 100);
}

type MonthRow = Awaited<ReturnType<ConsoleReads['monthInvoices']>>[number];
interface BrandTotals {
  brandId: string;
  brandName: string;
  invoicedCents: number;
  /** Negative: what the month's credit notes take back. */
  creditedCents: number;
}

/** The month per brand: what its invoices ask, what its credit notes take back (negative), the net. */
function perBrand(rows: readonly MonthRow[]): BrandTotals[] {
  const byBrand = new Map<string, BrandTotals>();
  for (const row of rows) {
    const totals = byBrand.get(row.brandId) ?? {
      brandId: row.brandId,
      brandName: row.brandName,
      invoicedCents: 0,
      creditedCents: 0,
    };
    if (row.type === 'credit_note') totals.creditedCents += row.totalCents;
    else totals.invoicedCents += row.totalCents;
    byBrand.set(row.brandId, totals);
  }
  return [...byBrand.values()].sort((a, b) => a.brandName.localeCompare(b.brandName));
}

const sum = (rows: readonly BrandTotals[], key: 'invoicedCents' | 'creditedCents') =>
  rows.reduce((total, row) => total + row[key], 0);

/** An issued invoice's actions: mark it paid (once), credit one of its orders (paid or not). */
function invoiceActions(ctx: ConsoleContext, invoice: MonthRow, month: string): SafeHtml {
  const { t } = ctx;
  const field = `credit-${invoice.id}`;
  return html`${invoice.status === 'issued' ? html`<form method="post" action="${CONSOLE_PATH}/finance/invoices/${invoice.id}/paid" class="inline">${csrfField(ctx)}<input type="hidden" name="month" value="${month}"><button type="submit" class="small">${t('finance.markPaid')}</button></form> ` : ''}<form method="post" action="${CONSOLE_PATH}/finance/invoices/${invoice.id}/credit" class="inline">${csrfField(ctx)}<input type="hidden" name="month" value="${month}"><label for="${field}" class="visually-hidden">${t('finance.creditOrder')}</label><input id="${field}" name="order" class="ref" required maxlength="14" placeholder="DLV-…" aria-describedby="h-credit-hint"><button type="submit" class="small secondary">${t('finance.credit')}</button></form>`;
}

/** Finance: the month's invoices and credit notes across brands and per brand; issue the month, mark paid, credit an order. */
export function financeRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const reads = consoleReadsRepository(deps.pool);
  const thisMonth = () => parisToday(deps.clock()).slice(0, 7);
  const monthOf = (request: FastifyRequest, from: 'query' | 'body') => {
    const asked = from === 'query' ? query(request, 'month', 7) : text(request, 'month', 7);
    return MONTH.test(asked) ? asked : thisMonth();
  };

  const page = async (ctx: ConsoleContext, month: string, note: SafeHtml | string = '') => {
    const { t } = ctx;
    const invoices = await reads.monthInvoices(month);
    const total = invoices.reduce((sum, i) => sum + i.totalCents, 0);
    const canWrite = may(ctx, 'invoices:write');
    const brands = perBrand(invoices);
    return layout(
      ctx,
      `${t('finance.title')} — ${month}`,
      html`${note}<form method="get" action="${CONSOLE_PATH}/finance" class="filters">
<div><label for="month">${t('finance.month')}</label><input id="month" name="month" type="month" value="${month}"></div>
<div class="actions"><button type="submit" class="secondary">${t('audit.filter')}</button></div></form>
${
  canWrite
    ? html`<form method="post" action="${CONSOLE_PATH}/finance/issue" class="inline">${csrfField(ctx)}<input type="hidden" name="month" value="${month}"><button type="submit">${t('finance.issue')}</button></form>`
    : ''
}
${
  invoices.length === 0
    ? html`<p>${t('finance.none')}</p>`
    : html`<table class="list"><caption class="visually-hidden">${t('finance.title')}</caption>
<thead><tr><th scope="col">${t('col.number')}</th><th scope="col">${t('col.brand')}</th><th scope="col">${t('col.status')}</th><th scope="col" class="num">${t('col.total')}</th><th scope="col">${t('col.when')}</th><th scope="col">${t('col.actions')}</th></tr></thead>
<tbody>${invoices.map(
        (
          i,
        ) => html`<tr><th scope="row">${i.number ?? '—'}${i.credits ? html` <span class="kind">→ ${i.credits}</span>` : ''}</th><td><a href="${CONSOLE_PATH}/brands/${i.brandId}">${i.brandName}</a></td><td><span class="tag">${i.type === 'credit_note' ? t('finance.creditNote') : i.status}</span></td>
<td class="num">${euros(ctx, i.totalCents)}</td><td>${when(ctx, i.issuedAt)}</td>
<td>${canWrite && i.type === 'invoice' ? invoiceActions(ctx, i, month) : ''}</td></tr>`,
      )}</tbody>
<tfoot><tr><th scope="row" colspan="3">${t('finance.total')}</th><td class="num">${euros(ctx, total)}</td><td colspan="2"></td></tr></tfoot></table>
<section aria-labelledby="h-per-brand"><h2 id="h-per-brand">${t('finance.perBrand')}</h2>
<table class="list"><thead><tr><th scope="col">${t('col.brand')}</th><th scope="col" class="num">${t('finance.invoiced')}</th><th scope="col" class="num">${t('finance.creditedTotal')}</th><th scope="col" class="num">${t('finance.net')}</th></tr></thead>
<tbody>${brands.map(
        (b) =>
          html`<tr><th scope="row"><a href="${CONSOLE_PATH}/brands/${b.brandId}">${b.brandName}</a></th><td class="num">${euros(ctx, b.invoicedCents)}</td><td class="num">${euros(ctx, b.creditedCents)}</td><td class="num">${euros(ctx, b.invoicedCents + b.creditedCents)}</td></tr>`,
      )}</tbody>
<tfoot><tr><th scope="row">${t('finance.allBrands')}</th><td class="num">${euros(ctx, sum(brands, 'invoicedCents'))}</td><td class="num">${euros(ctx, sum(brands, 'creditedCents'))}</td><td class="num">${euros(ctx, total)}</td></tr></tfoot></table></section>`
}
<p class="hint" id="h-credit-hint">${t('finance.creditHint')}</p>`,
      { wide: true },
    );
  };

  app.get('/finance', needs('invoices:read'), async (request, reply) =>
    sendPage(reply, await page(await deps.context(request, reply), monthOf(request, 'query'))),
  );

  app.post('/finance/issue', needs('invoices:write'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const month = monthOf(request, 'body');
    try {
      const run = await deps.invoices.issueMonth(month, authorOf(request));
      const note = html`${successNote(ctx.t('finance.issued', { count: String(run.issued.length), month: run.period }))}${run.held.map(
        (h) =>
          html`<p class="warning">${ctx.t('finance.held', { brand: h.brandName, reason: h.reason })}</p>`,
      )}`;
      return sendPage(reply, await page(ctx, month, note));
    } catch (err) {
      if (!isAppError(err) || err.status >= 500) throw err;
      return sendPage(reply, await page(ctx, month, errorNote(err.message)), err.status);
    }
  });

  app.post('/finance/invoices/:id/paid', needs('invoices:write'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const month = monthOf(request, 'body');
    try {
      const invoice = await deps.invoices.markPaid((request.params as { id: string }).id, authorOf(request));
      return sendPage(
        reply,
        await page(ctx, month, successNote(ctx.t('finance.paid', { number: invoice.number ?? invoice.id }))),
      );
    } catch (err) {
      if (!isAppError(err) || err.status >= 500) throw err;
      return sendPage(reply, await page(ctx, month, errorNote(err.message)), err.status);
    }
  });

  app.post('/finance/invoices/:id/credit', needs('invoices:write'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const month = monthOf(request, 'body');
    const order = text(request, 'order', 40);
    try {
      const note = await deps.invoices.creditOrder(
        (request.params as { id: string }).id,
        order,
        authorOf(request),
      );
      const message = ctx.t('finance.credited', {
        number: note.number,
        ref: normaliseTrackingRef(order) ?? order,
        invoice: note.creditsInvoice.number,
      });
      return sendPage(reply, await page(ctx, month, successNote(message)));
    } catch (err) {
      if (!isAppError(err) || err.status >= 500) throw err;
      return sendPage(reply, await page(ctx, month, errorNote(err.message)), err.status);
    }
  });
}
