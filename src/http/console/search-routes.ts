import type { FastifyInstance } from 'fastify';
import { auditRepository } from '../../db/repositories/audit-repository.ts';
import { consoleReadsRepository } from '../../db/repositories/console-reads-repository.ts';
import { classify, orderSearch } from '../../domain/console/order-search.ts';
import { AppError, isAppError } from '../../errors.ts';
import { query } from '../account/form.ts';
import { authorOf } from '../shared/author.ts';
import { html } from '../shared/html.ts';
import { needs, sendPage } from './context.ts';
import type { ConsoleRouteDeps } from './route-deps.ts';
import { CONSOLE_PATH, errorNote, layout, may, when } from './views/layout.ts';

/** Search by tracking reference, brand reference, recipient phone or e-mail (the last two audited). */
export function searchRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const search = orderSearch({ reads: consoleReadsRepository(deps.pool), audit: auditRepository(deps.pool) });

  app.get('/search', needs('orders:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const { t } = ctx;
    const q = query(request, 'q', 200);
    let results = html``;
    let status = 200;
    if (q.trim() !== '') {
      try {
        // A recipient's phone or e-mail is personal data: the roles that read recipients only.
        const { kind } = classify(q);
        if ((kind === 'email' || kind === 'phone') && !may(ctx, 'recipients:read'))
          throw new AppError('insufficient_scope', 'Searching by a recipient needs "recipients:read".');
        const found = await search.search(q, authorOf(request));
        if (found.kind === 'tracking_ref' && found.orders.length === 1)
          return reply.redirect(`${CONSOLE_PATH}/orders/${found.orders[0]!.trackingRef}`, 303);
        results =
          found.orders.length === 0
            ? html`<p>${t('search.none')}</p>`
            : html`<table class="list"><thead><tr><th scope="col">${t('col.order')}</th><th scope="col">${t('col.brand')}</th><th scope="col">Ref.</th><th scope="col">${t('col.status')}</th><th scope="col">${t('col.when')}</th></tr></thead>
<tbody>${found.orders.map(
                (o) =>
                  html`<tr><th scope="row"><a href="${CONSOLE_PATH}/orders/${o.trackingRef}">${o.trackingRef}</a></th><td>${o.brandName}</td><td>${o.reference ?? '—'}</td><td>${o.status}</td><td>${when(ctx, o.createdAt)}</td></tr>`,
              )}</tbody></table>`;
      } catch (err) {
        if (!isAppError(err) || err.code !== 'invalid_request') throw err;
        results = errorNote(err.message);
        status = 400;
      }
    }
    return sendPage(
      reply,
      layout(
        ctx,
        t('search.title'),
        html`<form method="get" action="${CONSOLE_PATH}/search" class="filters" role="search">
<div class="grow"><label for="q">${t('search.q')}</label><input id="q" name="q" value="${q}" required maxlength="200"></div>
<div class="actions"><button type="submit">${t('search.submit')}</button></div></form>
<p class="hint">${t('search.audited')}</p>
${results}`,
      ),
      status,
    );
  });
}
