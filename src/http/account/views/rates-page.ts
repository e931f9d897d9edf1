import type { Destination } from '../../../domain/coverage/destination.ts';
import type { RatesQuote } from '../../../domain/rates/quote-rates.ts';
import type { RateRequest } from '../../../domain/rates/rate-service.ts';
import { html } from '../../shared/html.ts';
import { type FieldErrors, inputField, selectField } from './form-fields.ts';
import { layout, type PageContext } from './layout.ts';

const RATE_UNIT_TYPES = ['parcel', 'envelope', 'bulky', 'pallet'] as const;

/** The form as typed (query parameters: the page is a GET, so a result can be bookmarked). */
export interface RatesForm {
  to: string;
  unit_type: string;
  unit_weight: string;
  quantity: string;
}

export interface RatesResult {
  quote: RatesQuote;
  destination: Destination;
  /** The body of the equivalent `POST /rates`, shown for developers. */
  body: RateRequest;
}

const money = (ctx: PageContext, euros: number) =>
  html`<data value="${euros.toFixed(2)}">${new Intl.NumberFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    style: 'currency',
    currency: 'EUR',
  }).format(euros)}</data>`;

const day = (ctx: PageContext, isoDate: string) =>
  html`<time datetime="${isoDate}">${new Intl.DateTimeFormat(ctx.locale === 'fr' ? 'fr-FR' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  }).format(new Date(`${isoDate}T00:00:00Z`))}</time>`;

function place(destination: Destination): string {
  if (destination.kind === 'unknown_postcode') return destination.postcode ?? '—';
  return `${destination.postcode} ${destination.city}`;
}

function results(ctx: PageContext, result: RatesResult, apiBaseUrl: string) {
  const { t } = ctx;
  const { quote, destination } = result;
  const curl = html`<p>${t('rates.api')}</p>
<pre><code>curl -X POST ${apiBaseUrl}/rates -H "Authorization: Bearer dlv_…" -H "Content-Type: application/json" -d '${JSON.stringify(result.body)}'</code></pre>`;
  if (!quote.available) {
    const why =
      destination.kind === 'out_of_zone'
        ? t('rates.outOfZone', { place: place(destination) })
        : destination.kind === 'unknown_postcode'
          ? t('rates.unknown')
          : t('rates.incomplete');
    return html`<section class="card" aria-live="polite"><p class="warning" role="status" data-available="false">${why}</p>${curl}</section>`;
  }
  return html`<section class="card" aria-live="polite" data-available="true">
<h2>${t('rates.results', { place: place(destination) })}</h2>
<table class="keys rates"><thead><tr><th>${t('rates.service')}</th><th>${t('rates.price')}</th><th>${t('rates.priceExcl')}</th><th>${t('rates.delay')}</th><th>${t('rates.promised')}</th></tr></thead>
<tbody>${quote.rates.map(
    (r) => html`<tr data-service="${r.service}">
  <td data-label="${t('rates.service')}">${r.name}</td>
  <td data-label="${t('rates.price')}"><strong>${money(ctx, r.price_eur)}</strong></td>
  <td data-label="${t('rates.priceExcl')}">${money(ctx, r.price_excl_tax_eur)}</td>
  <td data-label="${t('rates.delay')}">${r.delay_business_days === 0 ? t('rates.sameDay') : t('rates.days', { n: String(r.delay_business_days) })}</td>
  <td data-label="${t('rates.promised')}">${day(ctx, r.promised_date)}</td>
</tr>`,
  )}</tbody></table>
${curl}
</section>`;
}

export function ratesPage(
  ctx: PageContext,
  state: { values: RatesForm; errors?: FieldErrors; result?: RatesResult },
  apiBaseUrl: string,
): string {
  const { t } = ctx;
  const { values, errors = {} } = state;
  return layout(
    ctx,
    t('rates.title'),
    html`<p>${t('rates.intro')}</p>
<form method="get" action="/account/rates" class="card">
  ${inputField(t('rates.address'), 'to', { value: values.to, error: errors.to, maxlength: 500, required: true, placeholder: '75011' })}
  ${selectField(
    t('rates.unitType'),
    'unit_type',
    RATE_UNIT_TYPES.map((unit) => ({ value: unit, label: t(`unitType.${unit}`) })),
    { value: values.unit_type, error: errors.unit_type },
  )}
  ${inputField(t('rates.unitWeight'), 'unit_weight', { value: values.unit_weight, error: errors.unit_weight, maxlength: 30, placeholder: '1kg' })}
  ${inputField(t('rates.quantity'), 'quantity', { type: 'number', inputmode: 'numeric', value: values.quantity, error: errors.quantity, maxlength: 4 })}
  <button type="submit">${t('rates.submit')}</button>
</form>
${state.result ? results(ctx, state.result, apiBaseUrl) : ''}`,
  );
}
