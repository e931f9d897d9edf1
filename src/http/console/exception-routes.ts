import type { FastifyInstance, FastifyRequest } from 'fastify';
import { consoleReadsRepository } from '../../db/repositories/console-reads-repository.ts';
import { parisToday } from '../../domain/calendar/paris-time.ts';
import { text } from '../account/form.ts';
import { authorOf } from '../shared/author.ts';
import { html, type SafeHtml } from '../shared/html.ts';
import { needs, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import { CONSOLE_PATH, type ConsoleContext, csrfField, layout, may, when } from './views/layout.ts';

const LIMIT = 100;
const refParam = (request: FastifyRequest) => (request.params as { ref: string }).ref;
const orderLink = (ref: string) => html`<a href="${CONSOLE_PATH}/orders/${ref}">${ref}</a>`;

/** A status change through the operations API's service, from a console form. */
const statusForm = (ctx: ConsoleContext, ref: string, status: string, label: string, tone = '') =>
  html`<form method="post" action="${CONSOLE_PATH}/orders/${ref}/status" class="inline">${csrfField(ctx)}<input type="hidden" name="status" value="${status}"><input type="hidden" name="back" value="exceptions"><button type="submit" class="small ${tone}">${label}</button></form>`;

function section(title: string, id: string, rows: SafeHtml[], head: SafeHtml, none: string) {
  return html`<section class="panel" aria-labelledby="${id}"><h2 id="${id}">${title} <span class="count">${rows.length}</span></h2>
${rows.length === 0 ? html`<p>${none}</p>` : html`<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`}</section>`;
}

/** Exceptions: what needs a person, each with the action that resolves it or the page that does. */
export function exceptionRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const reads = consoleReadsRepository(deps.pool);

  app.get('/exceptions', needs('pickups:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const { t } = ctx;
    const x = await reads.exceptions(parisToday(deps.clock()), LIMIT);
    const canDecide = may(ctx, 'orders:write');
    const th = (...keys: string[]) => keys.map((k) => html`<th scope="col">${t(k)}</th>`);
    const none = t('exceptions.none');
    return sendPage(
      reply,
      layout(
        ctx,
        t('exceptions.title'),
        html`<div class="panels">
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
      html`<tr><th scope="row">${m.brandName}</th><td>${m.date}</td><td>${m.missingRefs.map((r) => html`${orderLink(r)} `)}</td></tr>`,
  ),
  html`${th('col.brand', 'col.when', 'col.missing')}`,
  none,
)}
${section(
  t('exceptions.flagged'),
  'h-flagged',
  x.flaggedAddresses.map(
    (f) =>
      html`<tr><th scope="row">${orderLink(f.trackingRef)}</th><td>${f.brandName}</td><td>${f.warnings.join(', ')}</td></tr>`,
  ),
  html`${th('col.order', 'col.brand', 'col.reason')}`,
  none,
)}
${section(
  t('exceptions.bounced'),
  'h-bounced',
  x.bouncedNotifications.map(
    (b) =>
      html`<tr><th scope="row">${orderLink(b.trackingRef)}</th><td>${b.channel} · ${b.step}</td><td>${b.detail ?? '—'}</td><td>${when(ctx, b.at)}</td></tr>`,
  ),
  html`${th('col.order', 'col.detail', 'col.reason', 'col.when')}`,
  none,
)}
${section(
  t('exceptions.webhooks'),
  'h-webhooks',
  x.failingWebhooks.map(
    (w) =>
      html`<tr><th scope="row"><a href="${CONSOLE_PATH}/brands/${w.brandId}">${w.brandName}</a></th><td><code>${w.url}</code></td><td>${w.status}${w.reason ? html` — ${w.reason}` : ''}</td><td>${when(ctx, w.since)}</td></tr>`,
  ),
  html`${th('col.brand', 'col.address', 'col.status', 'col.when')}`,
  none,
)}
</div>`,
        { wide: true },
      ),
    );
  });

  // An order, whichever brand: its recipient's data is shown, so the read is audited (recipient.read).
  app.get('/orders/:ref', needs('orders:read'), async (request, reply) => {
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
    return sendPage(
      reply,
      layout(
        ctx,
        t('order.title', { ref: order.trackingRef }),
        html`<dl class="facts">
<dt>${t('col.status')}</dt><dd><span class="tag">${order.status}</span></dd>
<dt>${t('col.brand')}</dt><dd><a href="${CONSOLE_PATH}/brands/${order.brandId}">${order.brandId}</a></dd>
<dt>${t('col.order')}</dt><dd>${order.reference ?? '—'}</dd>
<dt>${t('order.recipient')}</dt><dd>${order.deliveryRecipient ?? '—'} ${order.deliveryPhone ?? ''} ${order.deliveryEmail ?? ''}</dd>
<dt>${t('col.address')}</dt><dd>${[order.deliveryAddress, order.deliveryPostcode, order.deliveryCity].filter(Boolean).join(', ') || '—'}</dd>
</dl>
${moves.length > 0 ? html`<p>${moves.map((s) => html`${statusForm(ctx, order.trackingRef, s, s)} `)}</p>` : ''}
<h2>${t('order.history')}</h2>
<ol class="history">${order.events.map((h) => html`<li><code>${h.status}</code> — ${when(ctx, h.at)}${h.note ? html` — ${h.note}` : ''}</li>`)}</ol>`,
      ),
    );
  });

  app.post('/orders/:ref/status', needs('orders:write'), async (request, reply) => {
    const ref = refParam(request);
    await deps.orders.setStatus(ref, text(request, 'status', 40), null, authorOf(request));
    const back =
      text(request, 'back', 20) === 'exceptions'
        ? `${CONSOLE_PATH}/exceptions`
        : `${CONSOLE_PATH}/orders/${ref}`;
    return reply.redirect(back, 303);
  });
}
