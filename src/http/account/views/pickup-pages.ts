import type { Pickup } from '../../../domain/pickups/ports.ts';
import { html } from '../../shared/html.ts';
import { type FieldErrors, inputField } from './form-fields.ts';
import { calendarDate } from './format.ts';
import { csrfField, layout, type PageContext, successNote } from './layout.ts';

export interface PickupForm {
  date: string;
  start: string;
  end: string;
}

const badge = (ctx: PageContext, status: string) =>
  html`<span class="badge badge-pickup-${status}">${ctx.t(`pickupStatus.${status}`)}</span>`;

const orderLink = (ref: string) =>
  html`<a href="/account/orders/${encodeURIComponent(ref)}"><code>${ref}</code></a>`;

function pickupRow(ctx: PageContext, p: Pickup) {
  const { t } = ctx;
  const missing = new Set(p.missingRefs);
  return html`<tr${p.missingRefs.length > 0 ? html` class="has-missing"` : ''}>
  <td data-label="${t('pickups.date')}" class="date">${calendarDate(ctx, p.date)}</td>
  <td data-label="${t('pickups.window')}">${p.window.start}–${p.window.end}${
    p.requestedAt ? html` <small class="muted">(${t('pickups.requested')})</small>` : ''
  }</td>
  <td data-label="${t('pickups.status')}">${badge(ctx, p.status)}</td>
  <td data-label="${t('pickups.parcels')}" class="num">${String(p.orderRefs.length)}</td>
  <td data-label="${t('pickups.missing')}">${
    p.missingRefs.length === 0
      ? '—'
      : html`<p class="missing" role="note">${t('pickups.missingNote', { count: String(p.missingRefs.length) })}</p>
    <ul class="missing-refs">${p.missingRefs.map((ref) => html`<li>${orderLink(ref)}</li>`)}</ul>`
  }</td>
  <td data-label="${t('pickups.address')}" class="long">${p.pickupAddress}</td>
  <td><a href="/account/pickups/${p.id}/manifest" target="_blank" rel="noopener">${t('pickups.manifest')}</a>${
    p.orderRefs.length > 0 && p.orderRefs.length <= 20
      ? html`<details><summary>${t('pickups.parcels')}</summary><ul>${p.orderRefs.map(
          (ref) => html`<li${missing.has(ref) ? html` class="missing"` : ''}>${orderLink(ref)}</li>`,
        )}</ul></details>`
      : ''
  }</td>
</tr>`;
}

function pickupTable(ctx: PageContext, pickups: Pickup[]) {
  const { t } = ctx;
  if (pickups.length === 0) return html`<p class="muted">${t('pickups.none')}</p>`;
  return html`<table class="list pickups"><thead><tr>
  <th>${t('pickups.date')}</th><th>${t('pickups.window')}</th><th>${t('pickups.status')}</th>
  <th class="num">${t('pickups.parcels')}</th><th>${t('pickups.missing')}</th><th>${t('pickups.address')}</th><th></th>
</tr></thead>
<tbody>${pickups.map((p) => pickupRow(ctx, p))}</tbody></table>`;
}

/** The brand's pickups (upcoming first, then the last week's) and the form to ask for one. */
export function pickupsPage(
  ctx: PageContext,
  state: {
    today: string;
    pickups: Pickup[];
    canAsk: boolean;
    form: PickupForm;
    errors?: FieldErrors;
    asked?: string;
  },
): string {
  const { t } = ctx;
  const errors = state.errors ?? {};
  const upcoming = state.pickups.filter((p) => p.date >= state.today && p.status === 'planned');
  const recent = state.pickups.filter((p) => !upcoming.includes(p)).reverse();
  const form = state.canAsk
    ? html`<form method="post" action="/account/pickups" class="card">
  ${csrfField(ctx)}
  <h2>${t('pickups.ask')}</h2>
  <p class="muted">${t('pickups.askIntro')}</p>
  ${inputField(t('pickups.date'), 'date', { type: 'date', value: state.form.date, error: errors.date, maxlength: 10, required: true })}
  ${inputField(t('pickups.windowStart'), 'window_start', { type: 'time', value: state.form.start, error: errors.window_start, maxlength: 5 })}
  ${inputField(t('pickups.windowEnd'), 'window_end', { type: 'time', value: state.form.end, error: errors.window_end, maxlength: 5 })}
  <button type="submit">${t('pickups.submit')}</button>
</form>`
    : html`<p class="muted">${t('pickups.readOnly')}</p>`;
  return layout(
    ctx,
    t('pickups.title'),
    html`<p>${t('pickups.intro')}</p>
${state.asked ? successNote(t('pickups.asked', { date: calendarDate(ctx, state.asked) })) : ''}
<h2>${t('pickups.upcoming')}</h2>
${pickupTable(ctx, upcoming)}
<h2>${t('pickups.recent')}</h2>
${pickupTable(ctx, recent)}
${form}`,
  );
}
