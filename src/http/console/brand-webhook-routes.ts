import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../errors.ts';
import { text } from '../account/form.ts';
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

const params = (request: FastifyRequest) =>
  request.params as { id: string; endpointId: string; requestId: string };

/**
 * A brand's webhooks in the console (issue 39, "webhooks on request"): the endpoints the brand
 * asked for from its account area, set up here (the signing secret shown once, to hand over) or
 * declined; its endpoints listed, a failing one disabled, a disabled one enabled again. Everything
 * through the webhook services `dlv webhooks` uses, audited there.
 */
export function brandWebhookRoutes(app: FastifyInstance, deps: ConsoleRouteDeps): void {
  const page = async (ctx: ConsoleContext, brandId: string, note: SafeHtml | string = '') => {
    const { t } = ctx;
    const brand = await deps.brands.get(brandId);
    const [endpoints, open] = await Promise.all([
      deps.webhooks.list(brand.id),
      deps.webhookRequests.listOpen().then((all) => all.filter((r) => r.brandId === brand.id)),
    ]);
    const canWrite = may(ctx, 'webhooks:write');
    return layout(
      ctx,
      t('webhooks.title', { brand: brand.name }),
      html`${note}<p><a href="${CONSOLE_PATH}/brands/${brand.id}">${t('webhooks.back', { brand: brand.name })}</a></p>
<section aria-labelledby="h-requests"><h2 id="h-requests">${t('webhooks.requests')}</h2>
${
  open.length === 0
    ? html`<p>${t('webhooks.noRequests')}</p>`
    : html`<table class="list"><thead><tr><th scope="col">${t('col.address')}</th><th scope="col">${t('webhooks.events')}</th><th scope="col">${t('webhooks.message')}</th><th scope="col">${t('col.when')}</th><th scope="col">${t('col.actions')}</th></tr></thead>
<tbody>${open.map(
        (
          r,
        ) => html`<tr><th scope="row"><code>${r.url}</code></th><td>${r.eventTypes.join(', ')}</td><td>${r.message || '—'}${r.userEmail ? html` <span class="kind">(${r.userEmail})</span>` : ''}</td><td>${when(ctx, r.createdAt)}</td>
<td>${canWrite ? html`<form method="post" action="${CONSOLE_PATH}/brands/${brand.id}/webhook-requests/${r.id}/set-up" class="inline">${csrfField(ctx)}<button type="submit" class="small">${t('webhooks.setUp')}</button></form> <form method="post" action="${CONSOLE_PATH}/brands/${brand.id}/webhook-requests/${r.id}/decline" class="inline">${csrfField(ctx)}<button type="submit" class="small secondary">${t('webhooks.decline')}</button></form>` : ''}</td></tr>`,
      )}</tbody></table>`
}</section>
<section aria-labelledby="h-endpoints"><h2 id="h-endpoints">${t('webhooks.endpoints')}</h2>
${
  endpoints.length === 0
    ? html`<p>${t('webhooks.noEndpoints')}</p>`
    : html`<table class="list"><thead><tr><th scope="col">${t('col.address')}</th><th scope="col">${t('webhooks.events')}</th><th scope="col">${t('col.status')}</th><th scope="col">${t('col.when')}</th><th scope="col">${t('col.actions')}</th></tr></thead>
<tbody>${endpoints.map(
        (
          e,
        ) => html`<tr${e.status === 'disabled' ? html` class="disabled"` : ''}><th scope="row"><code>${e.url}</code></th><td>${e.eventTypes.join(', ')}</td><td><span class="tag">${e.status}</span>${e.disabledReason ? html` — ${e.disabledReason}` : ''}</td><td>${when(ctx, e.createdAt)}</td>
<td>${canWrite ? endpointForm(ctx, brand.id, e.id, e.status === 'disabled' ? 'enable' : 'disable', 'brand') : ''}</td></tr>`,
      )}</tbody></table>`
}</section>`,
      { wide: true },
    );
  };

  /** A refusal shown on the brand's webhooks page with its status; anything else is the error page's. */
  const refused = async (request: FastifyRequest, reply: FastifyReply, err: unknown) => {
    if (!isAppError(err) || err.status >= 500 || err.code === 'not_found') throw err;
    const ctx = await deps.context(request, reply);
    return sendPage(reply, await page(ctx, params(request).id, errorNote(err.message)), err.status);
  };

  /** The request, if it is this brand's and still open (else the page's 404). */
  const openRequest = async (brandId: string, requestId: string) =>
    (await deps.webhookRequests.listOpen()).find((r) => r.id === requestId && r.brandId === brandId) ?? null;

  app.get('/brands/:id/webhooks', needs('webhooks:read'), async (request, reply) => {
    const ctx = await deps.context(request, reply);
    const done = (request.query as Record<string, unknown>).done;
    const note =
      done === 'declined' || done === 'enable' || done === 'disable'
        ? successNote(ctx.t(`webhooks.done.${done}`))
        : '';
    return sendPage(reply, await page(ctx, params(request).id, note));
  });

  // Answers with the page itself (201), not a redirect: the signing secret is shown this once.
  app.post(
    '/brands/:id/webhook-requests/:requestId/set-up',
    needs('webhooks:write'),
    async (request, reply) => {
      const { id, requestId } = params(request);
      const asked = await openRequest(id, requestId);
      if (!asked) return reply.callNotFound();
      try {
        const by = authorOf(request);
        const { endpoint, secret } = await deps.webhooks.add(
          { brandId: asked.brandId, url: asked.url, events: asked.eventTypes },
          by,
        );
        await deps.webhookRequests.close(asked.id, 'done', by);
        const ctx = await deps.context(request, reply);
        const note = html`${successNote(ctx.t('webhooks.created', { url: endpoint.url }))}<p class="secret">${ctx.t('webhooks.secretOnce')} <code id="webhook-secret">${secret}</code></p>`;
        return sendPage(reply, await page(ctx, id, note), 201);
      } catch (err) {
        return refused(request, reply, err);
      }
    },
  );

  app.post(
    '/brands/:id/webhook-requests/:requestId/decline',
    needs('webhooks:write'),
    async (request, reply) => {
      const { id, requestId } = params(request);
      const asked = await openRequest(id, requestId);
      if (!asked) return reply.callNotFound();
      await deps.webhookRequests.close(asked.id, 'declined', authorOf(request));
      return reply.redirect(`${CONSOLE_PATH}/brands/${id}/webhooks?done=declined`, 303);
    },
  );

  for (const action of ['enable', 'disable'] as const) {
    app.post(
      `/brands/:id/webhooks/:endpointId/${action}`,
      needs('webhooks:write'),
      async (request, reply) => {
        const { id, endpointId } = params(request);
        const back = text(request, 'back', 20) === 'exceptions' ? 'exceptions' : 'brand';
        const endpoint = await deps.webhooks.get(endpointId).catch(() => null);
        if (!endpoint || endpoint.brandId !== id) return reply.callNotFound();
        try {
          const by = authorOf(request);
          if (action === 'enable') await deps.webhooks.enable(endpoint.id, by);
          else await deps.webhooks.disable(endpoint.id, by, 'disabled by the operator (console)');
        } catch (err) {
          return refused(request, reply, err);
        }
        return reply.redirect(
          back === 'exceptions'
            ? `${CONSOLE_PATH}/exceptions?done=${action}`
            : `${CONSOLE_PATH}/brands/${id}/webhooks?done=${action}`,
          303,
        );
      },
    );
  }
}
