import type { WebhookDelivery } from '../../../domain/webhooks/delivery.ts';
import type { WebhookEndpoint } from '../../../domain/webhooks/endpoint.ts';
import type { WebhookRequest } from '../../../domain/webhooks/webhook-requests.ts';
import { EVENT_CATALOGUE, EVENT_TYPES } from '../../../events/catalogue.ts';
import { html } from '../../shared/html.ts';
import { type FieldErrors, inputField, textareaField } from './form-fields.ts';
import { csrfField, dataSwitch, inMode, layout, type PageContext, successNote } from './layout.ts';

const when = (ctx: PageContext, date: Date) =>
  html`<time datetime="${date.toISOString()}">${new Intl.DateTimeFormat(
    ctx.locale === 'fr' ? 'fr-FR' : 'en-GB',
    {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'Europe/Paris',
    },
  ).format(date)}</time>`;

export interface RequestForm {
  url: string;
  events: string[];
  message: string;
}

function deliveriesTable(ctx: PageContext, deliveries: WebhookDelivery[]) {
  const { t } = ctx;
  if (deliveries.length === 0) return html`<p>${t('webhooks.noDeliveries')}</p>`;
  return html`<table class="keys"><thead><tr><th>${t('webhooks.event')}</th><th>${t('webhooks.status')}</th>
<th>${t('webhooks.attempts')}</th><th>${t('webhooks.lastHttp')}</th><th>${t('webhooks.at')}</th></tr></thead>
<tbody>${deliveries.map(
    (d) => html`<tr data-delivery="${d.id}">
  <td data-label="${t('webhooks.event')}"><code>${d.eventType}</code></td>
  <td data-label="${t('webhooks.status')}" class="delivery-${d.status}">${t(`webhooks.delivery.${d.status}`)}</td>
  <td data-label="${t('webhooks.attempts')}">${d.attemptCount}</td>
  <td data-label="${t('webhooks.lastHttp')}" class="long">${d.lastStatus ?? '—'}${d.lastError && d.lastStatus === null ? html` <small>${d.lastError}</small>` : ''}</td>
  <td data-label="${t('webhooks.at')}">${when(ctx, d.updatedAt)}</td>
</tr>`,
  )}</tbody></table>`;
}

function endpointCard(ctx: PageContext, endpoint: WebhookEndpoint, deliveries: WebhookDelivery[]) {
  const { t } = ctx;
  const active = endpoint.status === 'active';
  // The brand's tools made `api` ones and may remove them; the operator's are the operator's.
  const remove =
    endpoint.origin === 'api'
      ? html`<form method="post" action="${inMode(ctx, `/account/webhooks/${endpoint.id}/delete`)}" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('webhooks.delete')}</button></form>`
      : '';
  return html`<section class="card" data-endpoint="${endpoint.id}" data-origin="${endpoint.origin}">
<h2><code>${endpoint.url}</code></h2>
<dl class="card">
  <dt>${t('webhooks.origin')}</dt><dd>${t(`webhooks.origin.${endpoint.origin}`)}${endpoint.description ? html` — ${endpoint.description}` : ''}</dd>
  <dt>${t('webhooks.status')}</dt><dd class="${active ? 'ok' : 'error'}">${active ? t('webhooks.active') : t('webhooks.disabled')}${
    endpoint.disabledReason ? html` — ${endpoint.disabledReason}` : ''
  }</dd>
  <dt>${t('webhooks.events')}</dt><dd>${endpoint.eventTypes.map((e, i) => html`${i ? ', ' : ''}<code>${e}</code>`)}</dd>
</dl>
${remove}
<h3>${t('webhooks.deliveries')}</h3>
${deliveriesTable(ctx, deliveries)}
</section>`;
}

export function webhooksPage(
  ctx: PageContext,
  data: {
    endpoints: { endpoint: WebhookEndpoint; deliveries: WebhookDelivery[] }[];
    requests: WebhookRequest[];
    /** The operator opened the subscription API to the brand. */
    subscriptionsAllowed: boolean;
  },
  state: { values?: RequestForm; errors?: FieldErrors; sent?: boolean } = {},
): string {
  const { t } = ctx;
  const { values = { url: '', events: [], message: '' }, errors = {} } = state;
  const checked = new Set(values.events);
  return layout(
    ctx,
    t('webhooks.title'),
    html`${dataSwitch(ctx, '/account/webhooks')}
<p>${t('webhooks.intro')}</p>
<p class="notice">${data.subscriptionsAllowed ? t('webhooks.allowed') : t('webhooks.notAllowed')}</p>
${state.sent ? successNote(t('webhooks.sent')) : ''}
${data.endpoints.length === 0 ? html`<p>${t('webhooks.none')}</p>` : data.endpoints.map((e) => endpointCard(ctx, e.endpoint, e.deliveries))}
<form method="post" action="/account/webhooks/requests" class="card">
  <h2>${t('webhooks.request')}</h2>
  ${csrfField(ctx)}
  ${inputField(t('webhooks.url'), 'url', { type: 'url', value: values.url, error: errors.url, maxlength: 2000, required: true, placeholder: 'https://' })}
  <fieldset${errors.events ? html` aria-describedby="events-error"` : ''}><legend>${t('webhooks.events')}</legend>
  ${EVENT_TYPES.map(
    (type) =>
      html`<label class="check"><input type="checkbox" name="events" value="${type}"${checked.has(type) ? html` checked` : ''}> <code>${type}</code> — ${EVENT_CATALOGUE[type].description}</label>`,
  )}
  ${errors.events ? html`<p class="field-error" id="events-error">${errors.events}</p>` : ''}
  </fieldset>
  ${textareaField(t('webhooks.message'), 'message', { value: values.message, error: errors.message, maxlength: 2000 })}
  <button type="submit">${t('webhooks.send')}</button>
</form>
${
  data.requests.length === 0
    ? ''
    : html`<section><h2>${t('webhooks.requests')}</h2><ul class="audit">${data.requests.map(
        (r) =>
          html`<li>${when(ctx, r.createdAt)} — <code>${r.url}</code> — ${r.eventTypes.join(', ')} — ${t(`webhooks.request.${r.status}`)}${r.userEmail ? html` — ${r.userEmail}` : ''}</li>`,
      )}</ul></section>`
}`,
  );
}
