import type { FastifyInstance } from 'fastify';
import { consoleBoardRepository } from '../../db/repositories/console-board-repository.ts';
import { parisToday } from '../../domain/calendar/paris-time.ts';
import { type Board, pickupIsLate } from '../../domain/console/board.ts';
import { html, type SafeHtml } from '../shared/html.ts';
import { needs, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import { CONSOLE_PATH, type ConsoleContext, layout, timeOf } from './views/layout.ts';

/** A stream is closed after this long; the browser reconnects at once, and the session is checked again. */
const STREAM_MS = 10 * 60_000;
const HEARTBEAT_MS = 15_000;

function boardFragment(ctx: ConsoleContext, board: Board): SafeHtml {
  const { t } = ctx;
  const c = board.counters;
  const counter = (label: string, value: string | number, tone = '') =>
    html`<li class="${tone}"><span class="value">${value}</span> <span class="label">${label}</span></li>`;
  const statusOf = (p: Board['pickups'][number]) =>
    pickupIsLate(p, board.date, board.at) ? 'late' : p.status;
  return html`<p class="updated">${t('today.updated', { time: timeOf(ctx, board.at) })}</p>
<section aria-labelledby="h-counters"><h2 id="h-counters" class="visually-hidden">${t('today.counters')}</h2>
<ul class="counters">
  ${counter(t('today.c.stops'), c.deliveryStops)}
  ${counter(t('today.c.delivered'), c.delivered, 'ok')}
  ${counter(t('today.c.failed'), c.failedAttempts, c.failedAttempts > 0 ? 'warn' : '')}
  ${counter(t('today.c.pickups'), `${c.pickupsClosed}/${c.pickups}`)}
  ${counter(t('today.c.missing'), c.missingParcels, c.missingParcels > 0 ? 'warn' : '')}
  ${counter(t('today.c.scans'), c.scans)}
</ul></section>
<div class="panels">
<section class="panel" aria-labelledby="h-rounds"><h2 id="h-rounds">${t('today.rounds')}</h2>
${
  board.rounds.length === 0
    ? html`<p>${t('today.none')}</p>`
    : html`<table><thead><tr><th scope="col">${t('col.round')}</th><th scope="col">${t('col.courier')}</th><th scope="col">${t('col.progress')}</th><th scope="col">${t('col.late')}</th></tr></thead><tbody>
${board.rounds.map(
  (r) => html`<tr><th scope="row">${r.name}</th><td>${r.courierName ?? '—'}</td>
<td><span class="progress"><meter min="0" max="${Math.max(r.stops, 1)}" value="${r.done}"></meter> ${r.done}/${r.stops}</span></td>
<td${r.late > 0 ? html` class="bad"` : ''}>${r.late}</td></tr>`,
)}</tbody></table>`
}</section>
<section class="panel" aria-labelledby="h-couriers"><h2 id="h-couriers">${t('today.couriers')}</h2>
${
  board.couriers.length === 0
    ? html`<p>${t('today.none')}</p>`
    : html`<table><thead><tr><th scope="col">${t('col.courier')}</th><th scope="col">${t('col.round')}</th><th scope="col">${t('col.lastScan')}</th></tr></thead><tbody>
${board.couriers.map(
  (k) => html`<tr><th scope="row">${k.name}</th><td>${k.rounds.join(', ')}</td>
<td>${k.lastScanAt ? html`<span class="scan">${timeOf(ctx, k.lastScanAt)} · ${k.lastScanContext} · <code>${k.lastScanCode}</code>${k.lastScanResult === 'refused' ? html` <span class="bad">✕</span>` : ''}</span>` : '—'}</td></tr>`,
)}</tbody></table>`
}</section>
<section class="panel" aria-labelledby="h-pickups"><h2 id="h-pickups">${t('today.pickups')}</h2>
${
  board.pickups.length === 0
    ? html`<p>${t('today.none')}</p>`
    : html`<table><thead><tr><th scope="col">${t('col.brand')}</th><th scope="col">${t('col.window')}</th><th scope="col">${t('col.status')}</th><th scope="col">${t('col.parcels')}</th><th scope="col">${t('col.missing')}</th></tr></thead><tbody>
${board.pickups.map((p) => {
  const status = statusOf(p);
  return html`<tr><th scope="row">${p.brandName}</th><td>${p.windowStart}–${p.windowEnd}</td>
<td><span class="tag ${status}">${t(`status.${status}`)}</span></td><td>${p.parcels}</td><td${p.missing > 0 ? html` class="bad"` : ''}>${p.missing}</td></tr>`;
})}</tbody></table>`
}</section>
</div>`;
}

/** The Today board, its fragment (what the live script swaps in) and its stream of changes. */
export function todayRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const reader = consoleBoardRepository(deps.pool);
  const today = () => parisToday(deps.clock());

  app.get('/', needs('rounds:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const board = await reader.board(today(), deps.clock());
    const { t } = ctx;
    return sendPage(
      reply,
      layout(
        ctx,
        `${t('today.title')} — ${board.date}`,
        html`<p id="live" class="live" role="status" aria-live="polite" data-live="${t('today.live')}" data-offline="${t('today.offline')}"></p>
<div id="board" data-src="${CONSOLE_PATH}/today/board" data-events="${CONSOLE_PATH}/today/events">${boardFragment(ctx, board)}</div>`,
        { wide: true, scripts: ['console.js'] },
      ),
    );
  });

  app.get('/today/board', needs('rounds:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    return sendPage(reply, boardFragment(ctx, await reader.board(today(), deps.clock())).value);
  });

  // Server-sent events: a `board` event each time the day's board changes; the page's script fetches
  // the fragment again. Nothing but "changed" goes down the stream.
  app.get('/today/events', needs('rounds:read'), async (request, reply) => {
    const headers = { ...reply.getHeaders() } as Record<string, string>;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 1000\n\n');
    const stop = deps.watcher.watch(today(), () => res.write('event: board\ndata: changed\n\n'));
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const end = setTimeout(() => res.end(), STREAM_MS);
    const close = () => {
      stop();
      clearInterval(heartbeat);
      clearTimeout(end);
    };
    request.raw.on('close', close);
    res.on('close', close);
  });
}
