import type { Invoice } from '../../../domain/invoices/invoice-service.ts';
import type { InvoiceLineRow } from '../../../domain/invoices/ports.ts';
import { html } from '../../shared/html.ts';
import { calendarDate, euros, monthOf, parisDateTime } from './format.ts';
import { layout, type PageContext } from './layout.ts';

const invoiceHref = (id: string) => `/account/invoices/${encodeURIComponent(id)}`;

const typeOf = (invoice: Invoice) => (invoice.creditsInvoice ? 'credit_note' : 'invoice');

const statusBadge = (ctx: PageContext, invoice: Invoice) =>
  html`<span class="badge badge-invoice-${invoice.status}">${ctx.t(`invoiceStatus.${invoice.status}`)}</span>`;

const numberOf = (ctx: PageContext, invoice: Invoice) =>
  invoice.number ?? html`<span class="muted">${ctx.t('invoices.unnumbered')}</span>`;

function invoiceRow(ctx: PageContext, invoice: Invoice) {
  const { t } = ctx;
  return html`<tr>
  <td data-label="${t('invoices.period')}"><a href="${invoiceHref(invoice.id)}">${monthOf(ctx, invoice.period)}</a></td>
  <td data-label="${t('invoices.number')}">${numberOf(ctx, invoice)}</td>
  <td data-label="${t('invoices.type')}">${t(`invoiceType.${typeOf(invoice)}`)}</td>
  <td data-label="${t('invoices.status')}">${statusBadge(ctx, invoice)}</td>
  <td data-label="${t('invoices.orderCount')}" class="num">${invoice.orderCount}</td>
  <td data-label="${t('invoices.totalExcl')}" class="num">${euros(ctx, invoice.totalExclTaxCents)}</td>
  <td data-label="${t('invoices.total')}" class="num">${euros(ctx, invoice.totalCents)}</td>
</tr>`;
}

export function invoicesPage(
  ctx: PageContext,
  data: { invoices: Invoice[]; nextCursor: string | null; paged: boolean },
): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('invoices.title'),
    html`${
      data.invoices.length === 0
        ? html`<p>${t('invoices.none')}</p>`
        : html`<table class="list"><thead><tr>
  <th>${t('invoices.period')}</th><th>${t('invoices.number')}</th><th>${t('invoices.type')}</th><th>${t('invoices.status')}</th>
  <th class="num">${t('invoices.orderCount')}</th><th class="num">${t('invoices.totalExcl')}</th><th class="num">${t('invoices.total')}</th>
</tr></thead>
<tbody>${data.invoices.map((invoice) => invoiceRow(ctx, invoice))}</tbody></table>`
    }
<nav class="pager" aria-label="pages">
  ${data.paged ? html`<a href="/account/invoices">${t('invoices.newest')}</a>` : ''}
  ${data.nextCursor ? html`<a rel="next" href="/account/invoices?cursor=${encodeURIComponent(data.nextCursor)}">${t('invoices.older')} →</a>` : ''}
</nav>`,
  );
}

export function invoicePage(ctx: PageContext, invoice: Invoice, lines: InvoiceLineRow[]): string {
  const { t } = ctx;
  const title = `${t(`invoiceType.${typeOf(invoice)}`)} ${invoice.number ?? ''} — ${monthOf(ctx, invoice.period)}`;
  return layout(
    ctx,
    title,
    html`<p class="summary">${statusBadge(ctx, invoice)}</p>
${invoice.status === 'draft' ? html`<p class="notice">${t('invoices.draftNote')}</p>` : ''}
${
  invoice.creditsInvoice
    ? html`<p><a href="${invoiceHref(invoice.creditsInvoice.id)}">${t('invoices.credits', { number: invoice.creditsInvoice.number })}</a></p>`
    : ''
}
<dl class="card pairs">
  <dt>${t('invoices.number')}</dt><dd>${numberOf(ctx, invoice)}</dd>
  <dt>${t('invoices.period')}</dt><dd>${monthOf(ctx, invoice.period)}</dd>
  <dt>${t('invoices.orderCount')}</dt><dd>${invoice.orderCount}</dd>
  <dt>${t('invoices.totalExcl')}</dt><dd>${euros(ctx, invoice.totalExclTaxCents)}</dd>
  <dt>${t('invoices.vat')}</dt><dd>${euros(ctx, invoice.vatCents)}</dd>
  <dt>${t('invoices.total')}</dt><dd>${euros(ctx, invoice.totalCents)}</dd>
  ${invoice.issuedAt ? html`<dt>${t('invoices.issuedAt')}</dt><dd>${parisDateTime(ctx, invoice.issuedAt)}</dd>` : ''}
  ${invoice.dueDate ? html`<dt>${t('invoices.dueDate')}</dt><dd>${calendarDate(ctx, invoice.dueDate)}</dd>` : ''}
  ${invoice.paidAt ? html`<dt>${t('invoices.paidAt')}</dt><dd>${parisDateTime(ctx, invoice.paidAt)}</dd>` : ''}
  ${
    invoice.einvoice
      ? html`<dt>${t('invoices.einvoice')}</dt><dd><span class="badge">${t(`einvoiceStatus.${invoice.einvoice.status}`)}</span>
    ${parisDateTime(ctx, invoice.einvoice.at)}${invoice.einvoice.reason ? html`<br>${invoice.einvoice.reason}` : ''}</dd>`
      : ''
  }
</dl>
<p><a class="button" href="${invoiceHref(invoice.id)}/pdf" download>${t('invoices.pdf')}</a></p>
<h2>${t('invoices.lines')}</h2>
${
  lines.length === 0
    ? html`<p>${t('invoices.noLines')}</p>`
    : html`<table class="list"><thead><tr>
  <th>${t('orders.trackingRef')}</th><th>${t('orders.service')}</th><th>${t('orders.created')}</th>
  <th class="num">${t('orders.priceExcl')}</th><th class="num">${t('orders.vat')}</th><th class="num">${t('orders.price')}</th>
</tr></thead>
<tbody>${lines.map(
        (line) => html`<tr>
  <td data-label="${t('orders.trackingRef')}"><a href="/account/orders/${line.trackingRef}"><code>${line.trackingRef}</code></a></td>
  <td data-label="${t('orders.service')}">${t(`service.${line.service}`)}</td>
  <td data-label="${t('orders.created')}">${parisDateTime(ctx, line.createdAt)}</td>
  <td data-label="${t('orders.priceExcl')}" class="num">${euros(ctx, line.priceExclTaxCents)}</td>
  <td data-label="${t('orders.vat')}" class="num">${euros(ctx, line.vatCents)}</td>
  <td data-label="${t('orders.price')}" class="num">${euros(ctx, line.priceCents)}</td>
</tr>`,
      )}</tbody></table>`
}
<p><a href="/account/invoices">${t('invoices.back')}</a></p>`,
  );
}
