import type { StatementMonth } from '../../../domain/emissions/ports.ts';
import { html } from '../../shared/html.ts';
import { kilograms, monthOf } from './format.ts';
import { layout, type PageContext } from './layout.ts';

const statementHref = (period: string, format: 'csv' | 'pdf') =>
  `/account/emissions/${encodeURIComponent(period)}/${format}`;

export function emissionsPage(ctx: PageContext, months: StatementMonth[]): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('emissions.title'),
    html`<p class="muted">${t('emissions.intro')}</p>
${
  months.length === 0
    ? html`<p>${t('emissions.none')}</p>`
    : html`<table class="list"><thead><tr>
  <th>${t('emissions.period')}</th><th class="num">${t('emissions.orders')}</th><th class="num">${t('emissions.total')}</th><th>${t('emissions.statement')}</th>
</tr></thead>
<tbody>${months.map(
        (m) => html`<tr>
  <td data-label="${t('emissions.period')}">${monthOf(ctx, m.period)}</td>
  <td data-label="${t('emissions.orders')}" class="num">${m.orders}</td>
  <td data-label="${t('emissions.total')}" class="num">${kilograms(ctx, m.grams)}</td>
  <td data-label="${t('emissions.statement')}"><a href="${statementHref(m.period, 'pdf')}" download>PDF</a> · <a href="${statementHref(m.period, 'csv')}" download>CSV</a></td>
</tr>`,
      )}</tbody></table>`
}
<p><a href="/account/invoices">${t('nav.invoices')}</a></p>`,
  );
}
