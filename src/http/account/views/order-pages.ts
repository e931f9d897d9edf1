import type { OrderWithEvents } from '../../../domain/orders/order.ts';
import type { OrderJson } from '../../../domain/orders/order-json.ts';
import { ORDER_STATUSES } from '../../../domain/orders/state-machine.ts';
import { formatWeight } from '../../../domain/pricing/units.ts';
import type { DeliveryAttempt } from '../../../domain/proofs/ports.ts';
import type { RecipientNotification } from '../../../domain/recipients/notification-ports.ts';
import { html } from '../../shared/html.ts';
import { calendarDate, euros, jsonEurosToCents, kilograms, parisDateTime } from './format.ts';
import { csrfField, dataSwitch, inMode, layout, type PageContext, successNote } from './layout.ts';
import { recipientMessagesSection } from './recipient-messages.ts';

export interface OrderFilters {
  q: string;
  status: string;
}

const badge = (ctx: PageContext, status: string) =>
  html`<span class="badge badge-${status}">${ctx.t(`orderStatus.${status}`)}</span>`;

const orderPath = (ref: string) => `/account/orders/${encodeURIComponent(ref)}`;
/** An order's page, in the data mode the list shows (a test order is found among test data only). */
const orderHref = (ctx: PageContext, ref: string) => inMode(ctx, orderPath(ref));

/** The list's address for these filters (and a cursor): the form's own GET, so links and form agree. */
function ordersHref(ctx: PageContext, filters: OrderFilters, cursor?: string): string {
  const params = new URLSearchParams();
  if (filters.q) params.set('q', filters.q);
  if (filters.status) params.set('status', filters.status);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return inMode(ctx, `/account/orders${query ? `?${query}` : ''}`);
}

function orderRow(ctx: PageContext, o: OrderJson) {
  const { t } = ctx;
  const destination = [o.delivery_postcode, o.delivery_city].filter(Boolean).join(' ');
  return html`<tr>
  <td class="pick" data-label="${t('labels.selectColumn')}"><input type="checkbox" name="ref" value="${o.tracking_ref}" form="labels" aria-label="${t('labels.select', { ref: o.tracking_ref })}"></td>
  <td data-label="${t('orders.trackingRef')}"><a href="${orderHref(ctx, o.tracking_ref)}"><code>${o.tracking_ref}</code></a></td>
  <td data-label="${t('orders.reference')}" class="long">${o.reference ?? '—'}</td>
  <td data-label="${t('orders.status')}">${badge(ctx, o.status)}</td>
  <td data-label="${t('orders.destination')}">${destination || '—'}</td>
  <td data-label="${t('orders.price')}" class="num">${euros(ctx, jsonEurosToCents(o.price_eur))}</td>
  <td data-label="${t('orders.promised')}" class="date">${calendarDate(ctx, o.promised_date)}</td>
  <td data-label="${t('orders.created')}">${parisDateTime(ctx, o.created_at)}</td>
</tr>`;
}

export function ordersPage(
  ctx: PageContext,
  data: { orders: OrderJson[]; nextCursor: string | null; paged: boolean },
  filters: OrderFilters,
  error?: string,
): string {
  const { t } = ctx;
  const filtered = filters.q !== '' || filters.status !== '';
  return layout(
    ctx,
    t('orders.title'),
    html`${dataSwitch(ctx, '/account/orders')}
<form method="get" action="/account/orders" class="filters" role="search">
  ${ctx.testMode ? html`<input type="hidden" name="mode" value="test">` : ''}
  <label for="q">${t('orders.search')}</label>
  <input type="text" id="q" name="q" value="${filters.q}" maxlength="100" placeholder="DLV-… / #1042" aria-describedby="q-hint">
  <small id="q-hint">${t('orders.searchHint')}</small>
  <label for="status">${t('orders.status')}</label>
  <select id="status" name="status">
    <option value="">${t('orders.allStatuses')}</option>
    ${ORDER_STATUSES.map(
      (s) =>
        html`<option value="${s}"${filters.status === s ? html` selected` : ''}>${t(`orderStatus.${s}`)}</option>`,
    )}
  </select>
  <div class="actions"><button type="submit">${t('orders.apply')}</button>${filtered ? html` <a href="${inMode(ctx, '/account/orders')}">${t('orders.clear')}</a>` : ''}</div>
</form>
${error ? html`<p class="error" role="alert">${error}</p>` : ''}
${
  data.orders.length === 0
    ? html`<p>${t('orders.none')}</p>`
    : html`${
        // Labels are printed from the live list: a test order's specimen label comes from the API.
        ctx.testMode
          ? ''
          : html`<form id="labels" method="post" action="/account/labels" target="_blank" class="labels">${csrfField(ctx)}
  <p class="muted">${t('labels.hint')}</p>
  ${labelChoices(ctx)}
  <button type="submit">${t('labels.print')}</button>
</form>`
      }
<table class="list"><thead><tr>
  <th class="pick">${t('labels.selectColumn')}</th><th>${t('orders.trackingRef')}</th><th>${t('orders.reference')}</th><th>${t('orders.status')}</th>
  <th>${t('orders.destination')}</th><th class="num">${t('orders.price')}</th><th>${t('orders.promised')}</th><th>${t('orders.created')}</th>
</tr></thead>
<tbody>${data.orders.map((o) => orderRow(ctx, o))}</tbody></table>`
}
<nav class="pager" aria-label="pages">
  ${data.paged ? html`<a href="${ordersHref(ctx, filters)}">${t('orders.newest')}</a>` : ''}
  ${data.nextCursor ? html`<a rel="next" href="${ordersHref(ctx, filters, data.nextCursor)}">${t('orders.older')} →</a>` : ''}
</nav>`,
  );
}

/** Format and size of labels, for the list's and an order's print forms. */
function labelChoices(ctx: PageContext) {
  const { t } = ctx;
  return html`<label>${t('labels.format')} <select name="format">
    <option value="pdf">${t('labels.pdf')}</option><option value="zpl">${t('labels.zpl')}</option>
  </select></label>
  <label>${t('labels.size')} <select name="size">
    <option value="a6">${t('labels.a6')}</option><option value="4x6">${t('labels.4x6')}</option>
  </select></label>`;
}

/** An order's "Print label": a form posted (a print marks the order labelled) to a new tab; or why it has none. */
function printLabel(ctx: PageContext, o: OrderWithEvents) {
  if (o.status === 'awaiting_address' || o.status === 'cancelled')
    return html`<p class="muted">${ctx.t('labels.unavailable')}</p>`;
  return html`<form method="post" action="${orderPath(o.trackingRef)}/label" target="_blank" class="labels">${csrfField(ctx)}
  ${labelChoices(ctx)}
  <button type="submit">${ctx.t('labels.printOne')}</button>
</form>`;
}

/** What the order page shows of its attempts at the door. */
export interface ProofView {
  delivered: DeliveryAttempt | null;
  /** Signed paths (15 minutes), null when there is no such file or it was erased. */
  photoPath: string | null;
  signaturePath: string | null;
  failed: DeliveryAttempt[];
}

function proofSection(ctx: PageContext, proof: ProofView) {
  const { t } = ctx;
  const d = proof.delivered;
  if (!d && proof.failed.length === 0) return '';
  const place =
    d && d.latitude !== null && d.longitude !== null
      ? html`${d.latitude.toFixed(3)}, ${d.longitude.toFixed(3)} (<a href="https://www.openstreetmap.org/?mlat=${d.latitude.toFixed(3)}&amp;mlon=${d.longitude.toFixed(3)}#map=17/${d.latitude.toFixed(3)}/${d.longitude.toFixed(3)}" rel="noopener noreferrer">${t('proof.map')}</a>)`
      : '—';
  const delivered = d
    ? html`<dl class="pairs">
    <dt>${t('proof.deliveredAt')}</dt><dd><time datetime="${d.happenedAt.toISOString()}">${parisDateTime(ctx, d.happenedAt)}</time></dd>
    <dt>${t('proof.receivedBy')}</dt><dd>${d.receivedBy ?? '—'}</dd>
    <dt>${t('proof.place')}</dt><dd>${place}</dd>
  </dl>
  <div class="proof-files">
    ${proof.photoPath ? html`<figure><img src="${proof.photoPath}" alt="${t('proof.photo')}" width="320"><figcaption>${t('proof.photo')}</figcaption></figure>` : ''}
    ${proof.signaturePath ? html`<figure><img src="${proof.signaturePath}" alt="${t('proof.signature')}" width="240"><figcaption>${t('proof.signature')}</figcaption></figure>` : ''}
  </div>
  <p class="muted">${t('proof.erased')}</p>`
    : '';
  const failed =
    proof.failed.length > 0
      ? html`<h3>${t('proof.failedAttempts')}</h3>
  <ul>${proof.failed.map((a) => html`<li><time datetime="${a.happenedAt.toISOString()}">${parisDateTime(ctx, a.happenedAt)}</time> — ${t(`proof.reason.${a.reason}`)}</li>`)}</ul>`
      : '';
  return html`<section class="card proof">
  <h2>${t('proof.title')}</h2>
  ${delivered}
  ${failed}
</section>`;
}

/** Where the address is and what may be wrong with it (SPEC §11): the brand's own order only. */
function placeSection(ctx: PageContext, o: OrderWithEvents) {
  const { t } = ctx;
  if (o.deliveryAddress === null) return '';
  const located =
    o.deliveryLat !== null &&
    o.deliveryLng !== null &&
    o.deliveryLocationPrecision &&
    o.deliveryLocationSource
      ? html`${t('place.value', {
          lat: o.deliveryLat.toFixed(6),
          lng: o.deliveryLng.toFixed(6),
          precision: t(`place.precision.${o.deliveryLocationPrecision}`),
          source: t(`place.source.${o.deliveryLocationSource}`),
        })} (<a href="https://www.openstreetmap.org/?mlat=${o.deliveryLat.toFixed(6)}&amp;mlon=${o.deliveryLng.toFixed(6)}#map=17/${o.deliveryLat.toFixed(6)}/${o.deliveryLng.toFixed(6)}" rel="noopener noreferrer">${t('place.map')}</a>)`
      : t('place.none');
  const warnings = o.addressWarnings;
  return html`<section class="card place">
  <h2>${t('place.warnings')}</h2>
  ${
    warnings.length > 0
      ? html`<ul class="warnings" role="alert">${warnings.map((w) => html`<li data-code="${w.code}">${t(`place.warning.${w.code}`)}</li>`)}</ul>
  <p class="muted">${t('place.warningsHint', { ref: o.trackingRef })}</p>`
      : ''
  }
  <dl class="pairs"><dt>${t('place.location')}</dt><dd>${located}</dd></dl>
</section>`;
}

export interface OrderPageState {
  trackingUrl: string;
  proof?: ProofView;
  /** The messages to the recipient (notifications part). */
  messages?: readonly RecipientNotification[];
  canCancel: boolean;
  cancellable: boolean;
  notice?: string;
  error?: string;
}

export function orderPage(ctx: PageContext, o: OrderWithEvents, state: OrderPageState): string {
  const { t } = ctx;
  const delivery = o.deliveryAddress ?? '—';
  const priced = o.priceCents !== null;
  const cancel = state.cancellable
    ? state.canCancel
      ? html`<p><a class="button danger" href="${inMode(ctx, `${orderPath(o.trackingRef)}/cancel`)}">${t('orders.cancel')}</a></p>`
      : html`<p class="muted">${t('orders.readOnly')}</p>`
    : '';
  return layout(
    ctx,
    o.trackingRef,
    html`${state.notice ? successNote(state.notice) : ''}
${state.error ? html`<p class="error" role="alert">${state.error}</p>` : ''}
<p class="summary">${badge(ctx, o.status)} ${o.reference ? html`<span>${t('orders.reference')}: <strong>${o.reference}</strong></span>` : ''}</p>
${ctx.testMode ? '' : printLabel(ctx, o)}
${cancel}
<div class="columns">
<section class="card">
  <h2>${t('orders.timeline')}</h2>
  <ol class="timeline">${[...o.events]
    .reverse()
    .map(
      (e) =>
        html`<li><time datetime="${e.at.toISOString()}">${parisDateTime(ctx, e.at)}</time> ${badge(ctx, e.status)}${e.note ? html`<br><span class="muted">${e.note}</span>` : ''}</li>`,
    )}</ol>
</section>
<section class="card">
  <h2>${t('orders.details')}</h2>
  <dl class="pairs">
    <dt>${t('orders.delivery')}</dt><dd>${delivery}</dd>
    <dt>${t('orders.recipient')}</dt><dd>${o.deliveryRecipient ?? '—'}</dd>
    <dt>${t('orders.phone')}</dt><dd>${o.deliveryPhone ?? '—'}</dd>
    <dt>${t('orders.recipientEmail')}</dt><dd>${o.deliveryEmail ?? '—'}</dd>
    <dt>${t('orders.pickup')}</dt><dd>${o.pickupAddress ?? '—'}</dd>
    <dt>${t('orders.customerEmail')}</dt><dd>${o.customerEmail ?? '—'}</dd>
    <dt>${t('orders.service')}</dt><dd>${t(`service.${o.service}`)}</dd>
    <dt>${t('orders.units')}</dt><dd>${t('orders.unitsValue', { quantity: String(o.quantity), unit: t(`unit.${o.unitType}`), weight: formatWeight(o.unitWeightGrams) })}</dd>
    <dt>${t('orders.price')}</dt><dd>${priced ? euros(ctx, o.priceCents) : t('orders.notPriced')}</dd>
    ${priced ? html`<dt>${t('orders.priceExcl')}</dt><dd>${euros(ctx, o.priceExclTaxCents)} (${t('orders.vat')} ${euros(ctx, o.vatCents)})</dd>` : ''}
    ${o.co2eGrams === null ? '' : html`<dt>${t('orders.co2e')}</dt><dd>${kilograms(ctx, o.co2eGrams)}</dd>`}
    <dt>${t('orders.promised')}</dt><dd>${calendarDate(ctx, o.promisedDate)}</dd>
    <dt>${t('orders.created')}</dt><dd>${parisDateTime(ctx, o.createdAt)}</dd>
  </dl>
</section>
</div>
${placeSection(ctx, o)}
${state.proof ? proofSection(ctx, state.proof) : ''}
${state.messages ? recipientMessagesSection(ctx, state.messages) : ''}
<section class="card">
  <h2>${t('orders.trackingLink')}</h2>
  <p class="muted">${t('orders.trackingLinkHint')}</p>
  <p class="link-box"><a href="${state.trackingUrl}">${state.trackingUrl}</a></p>
</section>
<p><a href="${inMode(ctx, '/account/orders')}">${t('orders.back')}</a></p>`,
  );
}

export function cancelOrderPage(ctx: PageContext, o: OrderWithEvents): string {
  const { t } = ctx;
  return layout(
    ctx,
    t('orders.cancelTitle', { ref: o.trackingRef }),
    html`<p>${badge(ctx, o.status)} ${o.reference ?? ''} — ${o.deliveryRecipient ?? ''} ${o.deliveryAddress ?? ''}</p>
<p class="warning">${t('orders.cancelWarning')}</p>
<form method="post" action="${inMode(ctx, `${orderPath(o.trackingRef)}/cancel`)}" class="inline">${csrfField(ctx)}<button type="submit" class="danger">${t('orders.cancelConfirm')}</button></form>
<a href="${orderHref(ctx, o.trackingRef)}">${t('orders.keep')}</a>`,
  );
}
