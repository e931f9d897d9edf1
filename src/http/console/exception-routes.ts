import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Platform } from '../../connectors/connection.ts';
import { consoleReadsRepository } from '../../db/repositories/console-reads-repository.ts';
import { parisToday } from '../../domain/calendar/paris-time.ts';
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
import { endpointForm } from './webhook-forms.ts';

const LIMIT = 100;
/** The notes an action's redirect may ask the page to show (`?done=`). */
const DONE_NOTES = [
  'resent',
  'resendFailed',
  'resynced',
  'told',
  'enable',
  'disable',
  'found',
  'notHandedOver',
];
/**
 * A parcel missing at its pickup, resolved (`why`, a hidden field): found afterwards (collected), or
 * cancelled as never handed over. The order's history note says which; the status change is the
 * operations API's, audited, with its webhooks (SPEC §10: it already waits in the next pickup).
 */
const MISSING_OUTCOMES: Record<string, { status: string; note: string; done: string }> = {
  found: { status: 'picked_up', note: 'Found after its pickup', done: 'found' },
  not_handed_over: { status: 'cancelled', note: 'Not handed over at its pickup', done: 'notHandedOver' },
};
/** The statuses in which the brand could still change the address (PATCH /orders/{ref}). */
const ADDRESS_EDITABLE = ['awaiting_address', 'pending'];
const refParam = (request: FastifyRequest) => (request.params as { ref: string }).ref;
const orderLink = (ref: string) => html`<a href="${CONSOLE_PATH}/orders/${ref}">${ref}</a>`;

/** A status change through the operations API's service, from a console form. */
const statusForm = (ctx: ConsoleContext, ref: string, status: string, label: string, tone = '') =>
  html`<form method="post" action="${CONSOLE_PATH}/orders/${ref}/status" class="inline">${csrfField(ctx)}<input type="hidden" name="status" value="${status}"><input type="hidden" name="back" value="exceptions"><button type="submit" class="small ${tone}">${label}</button></form>`;

/** A parcel missing at its pickup: found (collected) or cancelled as not handed over. */
const missingForm = (ctx: ConsoleContext, ref: string, why: keyof typeof MISSING_OUTCOMES, label: string) =>
  html`<form method="post" action="${CONSOLE_PATH}/orders/${ref}/status" class="inline">${csrfField(ctx)}<input type="hidden" name="why" value="${why}"><input type="hidden" name="back" value="exceptions"><button type="submit" class="small${why === 'found' ? '' : ' secondary'}">${label}</button></form>`;

/** The order page's correction of its delivery address, closed once the brand could not change it. */
function addressForm(ctx: ConsoleContext, ref: string, open: boolean, value: string) {
  const { t } = ctx;
  if (!open)
    return html`<h2 id="address">${t('order.address.submit')}</h2><p>${t('order.address.locked')}</p>`;
  return html`<h2 id="address">${t('order.address.submit')}</h2>
<form method="post" action="${CONSOLE_PATH}/orders/${ref}/address">${csrfField(ctx)}<label for="delivery_address">${t('order.address.field')}</label>
<input id="delivery_address" name="delivery_address" type="text" maxlength="500" required value="${value}" aria-describedby="address-help">
<p id="address-help" class="hint">${t('order.address.help')}</p>
<button type="submit">${t('order.address.submit')}</button></form>`;
}

/** A bounced message sent again: to the order's address, or to a corrected one typed here. */
function resendForm(ctx: ConsoleContext, b: { notificationId: string; channel: string }) {
  const field = `to-${b.notificationId}`;
  const sms = b.channel === 'sms';
  return html`<form method="post" action="${CONSOLE_PATH}/notifications/${b.notificationId}/resend" class="inline">${csrfField(ctx)}<label for="${field}" class="visually-hidden">${ctx.t(sms ? 'exceptions.correctPhone' : 'exceptions.correctEmail')}</label><input id="${field}" name="to" type="${sms ? 'tel' : 'email'}" maxlength="254" placeholder="${sms ? '06 12 34 56 78' : 'name@example.com'}"><button type="submit" class="small">${ctx.t('exceptions.resend')}</button></form>`;
}

/** A shop link's remedy: read the shop again, or tell the brand to link it again. */
function shopLinkForm(ctx: ConsoleContext, id: string, action: 'resync' | 'tell-brand') {
  return html`<form method="post" action="${CONSOLE_PATH}/shop-links/${id}/${action}" class="inline">${csrfField(ctx)}<button type="submit" class="small">${ctx.t(action === 'resync' ? 'exceptions.resync' : 'exceptions.tellBrand')}</button></form>`;
}

function section(title: string, id: string, rows: SafeHtml[], head: SafeHtml, none: string, full = false) {
  return html`<section class="panel${full ? ' full' : ''}" aria-labelledby="${id}"><h2 id="${id}">${title} <span class="count">${rows.length}</span></h2>
${rows.length === 0 ? html`<p>${none}</p>` : html`<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`}</section>`;
}

/** Exceptions: what needs a person, each with the action that resolves it or the page that does. */
export function exceptionRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const reads = consoleReadsRepository(deps.pool);

  const page = async (ctx: ConsoleContext, note: SafeHtml | string = '') => {
    const { t } = ctx;
    const x = await reads.exceptions(parisToday(deps.clock()), LIMIT);
    const canDecide = may(ctx, 'orders:write');
    const th = (...keys: string[]) => keys.map((k) => html`<th scope="col">${t(k)}</th>`);
    const none = t('exceptions.none');
    return layout(
      ctx,
      t('exceptions.title'),
      html`${note}<div class="panels">
${section(
  t('exceptions.failed'),
  'h-failed',
  x.failedAttempts.map(
    (
      f,
    ) => html`<tr><th scope="row">${orderLink(f.trackingRef)}</th><td>${f.brandName}</td><td>${f.reason ?? '—'}</td><td>${when(ctx, f.since)}</td>
<td>${canDecide ? html`${statusForm(ctx, f.trackingRef, 'out_for_delivery', t('exceptions.retry'))} ${statusForm(ctx, f.trackingRef, 'returned', t('exceptions.return'), 'secondary')}` : ''}</td></tr>`,
  ),
  html`${th('col.order', 'col.brand', 'col.reason', 'col.when', 'col.actions')}`,
  none,
)}
${section(
  t('exceptions.missing'),
  'h-missing',
  x.missingParcels.map(
    (m) =>
      html`<tr><th scope="row">${m.brandName}</th><td>${m.date}</td><td>${m.missingRefs.map(
        (r) =>
          html`<div>${orderLink(r)} ${canDecide ? html`${missingForm(ctx, r, 'found', t('exceptions.found'))} ${missingForm(ctx, r, 'not_handed_over', t('exceptions.notHandedOver'))}` : ''}</div>`,
      )}</td></tr>`,
  ),
  html`${th('col.brand', 'col.when', 'col.missing')}`,
  none,
)}
${section(
  t('exceptions.flagged'),
  'h-flagged',
  x.flaggedAddresses.map(
    (f) =>
      html`<tr><th scope="row">${orderLink(f.trackingRef)}</th><td>${f.brandName}</td><td>${f.warnings.join(', ')}</td>
<td>${may(ctx, 'addresses:write') ? html`<a href="${CONSOLE_PATH}/orders/${f.trackingRef}#address">${t('exceptions.correctAddress')}</a>` : ''}</td></tr>`,
  ),
  html`${th('col.order', 'col.brand', 'col.reason', 'col.actions')}`,
  none,
)}
${section(
  t('exceptions.bounced'),
  'h-bounced',
  x.bouncedNotifications.map(
    (b) =>
      html`<tr><th scope="row">${orderLink(b.trackingRef)}</th><td>${b.channel} · ${b.step}</td><td>${b.detail ?? '—'}</td><td>${when(ctx, b.at)}</td>
<td>${may(ctx, 'notifications:write') ? resendForm(ctx, b) : ''}</td></tr>`,
  ),
  html`${th('col.order', 'col.detail', 'col.reason', 'col.when', 'col.actions')}`,
  none,
  true,
)}
${section(
  t('exceptions.webhooks'),
  'h-webhooks',
  x.failingWebhooks.map(
    (w) =>
      html`<tr><th scope="row"><a href="${CONSOLE_PATH}/brands/${w.brandId}">${w.brandName}</a></th><td><code>${w.url}</code></td><td>${w.status}${w.reason ? html` — ${w.reason}` : ''}</td><td>${when(ctx, w.since)}</td>
<td>${may(ctx, 'webhooks:write') ? endpointForm(ctx, w.brandId, w.endpointId, w.status === 'disabled' ? 'enable' : 'disable', 'exceptions') : ''}</td></tr>`,
  ),
  html`${th('col.brand', 'col.address', 'col.status', 'col.when', 'col.actions')}`,
  none,
  true,
)}
${section(
  t('exceptions.shopLinks'),
  'h-shop-links',
  x.shopLinks.map(
    (l) =>
      html`<tr><th scope="row"><a href="${CONSOLE_PATH}/brands/${l.brandId}">${l.brandName}</a></th><td>${l.platform} · <code>${l.shop}</code></td><td><span class="tag">${l.status}</span>${l.reason ? html` — ${l.reason}` : ''}</td><td>${l.problems}</td><td>${when(ctx, l.since)}</td>
<td>${may(ctx, 'brands:write') ? shopLinkForm(ctx, l.connectionId, l.status === 'active' && deps.resync.supports(l.platform as Platform) ? 'resync' : 'tell-brand') : ''}</td></tr>`,
  ),
  html`${th('col.brand', 'exceptions.shop', 'col.status', 'exceptions.problems', 'col.when', 'col.actions')}`,
  none,
  true,
)}
</div>`,
      { wide: true },
    );
  };

  app.get('/exceptions', needs('pickups:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    // What the last action did (post/redirect/get): one of the known notes, never text from the address.
    const done = query(request, 'done', 20);
    const note = DONE_NOTES.includes(done) ? successNote(ctx.t(`exceptions.done.${done}`)) : '';
    return sendPage(reply, await page(ctx, note));
  });

  /** An action of the page: its refusal shown on the page (with its status), its success after a redirect. */
  const act =
    (work: (request: FastifyRequest) => Promise<string>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const done = await work(request);
        return reply.redirect(`${CONSOLE_PATH}/exceptions?done=${done}`, 303);
      } catch (err) {
        if (!isAppError(err) || err.status >= 500 || err.code === 'not_found') throw err;
        const ctx = await deps.context(request, reply);
        return sendPage(reply, await page(ctx, errorNote(err.message)), err.status);
      }
    };
  const idParam = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.post(
    '/notifications/:id/resend',
    needs('notifications:write'),
    act(async (request) => {
      const to = text(request, 'to', 254);
      const sent = await deps.recipientNotifications.resend(
        idParam(request),
        { to: to.trim() === '' ? null : to },
        authorOf(request),
      );
      return sent.status === 'sent' ? 'resent' : 'resendFailed';
    }),
  );

  app.post(
    '/shop-links/:id/resync',
    needs('brands:write'),
    act(async (request) => {
      await deps.shopLinks.retry(idParam(request), authorOf(request));
      return 'resynced';
    }),
  );

  app.post(
    '/shop-links/:id/tell-brand',
    needs('brands:write'),
    act(async (request) => {
      await deps.shopLinks.tellBrand(idParam(request), authorOf(request));
      return 'told';
    }),
  );

  /**
   * The order page. `note`: a refusal to show, or 'corrected' after an address's correction (said
   * with the warnings the order has now, never text from the address bar); `typed`: the address the
   * operator typed, kept on a refusal.
   */
  const orderPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    note: SafeHtml | 'corrected' | '' = '',
    typed?: string,
  ) => {
    const ctx = await deps.context(request, reply);
    const { t } = ctx;
    const order = await deps.orders.getAnyBrand(refParam(request), authorOf(request));
    const next: Record<string, string[]> = {
      pending: ['cancelled'],
      awaiting_address: ['cancelled'],
      out_for_delivery: ['delivered', 'failed_attempt'],
      failed_attempt: ['out_for_delivery', 'returned'],
    };
    const moves = may(ctx, 'orders:write') ? (next[order.status] ?? []) : [];
    const warnings = order.addressWarnings.map((w) => w.code);
    const shown =
      note !== 'corrected'
        ? note
        : successNote(
            warnings.length > 0
              ? t('order.address.stillFlagged', { warnings: warnings.join(', ') })
              : t('order.address.done'),
          );
    return layout(
      ctx,
      t('order.title', { ref: order.trackingRef }),
      html`${shown}<dl class="facts">
<dt>${t('col.status')}</dt><dd><span class="tag">${order.status}</span></dd>
<dt>${t('col.brand')}</dt><dd><a href="${CONSOLE_PATH}/brands/${order.brandId}">${order.brandId}</a></dd>
<dt>${t('col.order')}</dt><dd>${order.reference ?? '—'}</dd>
<dt>${t('order.recipient')}</dt><dd>${order.deliveryRecipient ?? '—'} ${order.deliveryPhone ?? ''} ${order.deliveryEmail ?? ''}</dd>
<dt>${t('col.address')}</dt><dd>${[order.deliveryAddress, order.deliveryPostcode, order.deliveryCity].filter(Boolean).join(', ') || '—'}</dd>
<dt>${t('order.warnings')}</dt><dd>${warnings.length > 0 ? warnings.map((w) => html`<span class="tag">${w}</span> `) : '—'}</dd>
</dl>
${moves.length > 0 ? html`<p>${moves.map((s) => html`${statusForm(ctx, order.trackingRef, s, s)} `)}</p>` : ''}
${may(ctx, 'addresses:write') ? addressForm(ctx, order.trackingRef, ADDRESS_EDITABLE.includes(order.status), typed ?? order.deliveryAddress ?? '') : ''}
<h2>${t('order.history')}</h2>
<ol class="history">${order.events.map((h) => html`<li><code>${h.status}</code> — ${when(ctx, h.at)}${h.note ? html` — ${h.note}` : ''}</li>`)}</ol>`,
    );
  };

  // An order, whichever brand: its recipient's data is shown, so the read is audited (recipient.read).
  app.get('/orders/:ref', needs('orders:read'), async (request, reply) => {
    const done = query(request, 'done', 20);
    return sendPage(reply, await orderPage(request, reply, done === 'address' ? 'corrected' : ''));
  });

  // A flagged address corrected as the brand would with PATCH /orders/{ref}: the same checks,
  // placing and events, the operator its author (order.address_corrected). A refusal (an address
  // not in the area, an order already collected) is shown on the order page, nothing written.
  app.post('/orders/:ref/address', needs('addresses:write'), async (request, reply) => {
    const typed = text(request, 'delivery_address', 500);
    try {
      const order = await deps.orders.correctAddress(
        refParam(request),
        { delivery_address: typed },
        authorOf(request),
      );
      return reply.redirect(`${CONSOLE_PATH}/orders/${order.trackingRef}?done=address`, 303);
    } catch (err) {
      if (!isAppError(err) || err.status >= 500 || err.code === 'not_found') throw err;
      return sendPage(reply, await orderPage(request, reply, errorNote(err.message), typed), err.status);
    }
  });

  app.post('/orders/:ref/status', needs('orders:write'), async (request, reply) => {
    const ref = refParam(request);
    // A missing parcel's outcome names its status and note; otherwise the status given.
    const outcome = MISSING_OUTCOMES[text(request, 'why', 20)];
    const status = outcome?.status ?? text(request, 'status', 40);
    await deps.orders.setStatus(ref, status, outcome?.note ?? null, authorOf(request));
    const back =
      text(request, 'back', 20) === 'exceptions'
        ? `${CONSOLE_PATH}/exceptions${outcome ? `?done=${outcome.done}` : ''}`
        : `${CONSOLE_PATH}/orders/${ref}`;
    return reply.redirect(back, 303);
  });
}
